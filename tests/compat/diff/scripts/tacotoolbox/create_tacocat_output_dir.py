# T23: create_tacocat(inputs, output=DIR) writes DIR/.tacocat/; inputs in different
# directories without output are refused.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
import _tbkit as K

wd = K.workdir()
f = K.make_files(wd, 4)
parts = []
for p in range(2):
    out = wd / f"d{p}" / f"part{p}.tacozip"
    tacotoolbox.create(K.taco(Tortilla([Sample(id=f"s{k}", path=f[p * 2 + k]) for k in range(2)])), out)
    parts.append(out)
res = {}
try:
    tacotoolbox.create_tacocat(parts)
    res["no_output"] = "no error"
except Exception as e:  # noqa: BLE001
    res["no_output"] = type(e).__name__
# tacotoolbox writes wd/cat/.tacocat whose internal:source_file names (basenames) do not lead
# back to the parts; taco-cpp refuses an output directory that does not contain the inputs.
try:
    tacotoolbox.create_tacocat(parts, output=wd / "cat")
    res["elsewhere"] = sorted(p.name for p in (wd / "cat" / ".tacocat").iterdir())
except Exception as e:  # noqa: BLE001
    res["elsewhere"] = type(e).__name__

K.emit(res)
