# T64/T65/T66: Provider (url http/https), Curator (name or organization; email with '@'),
# Extent (4 numbers in range, south <= north, west > east allowed, ISO times ordered).
from tacotoolbox.datamodel.taco import Curator, Extent, Provider
import _tbkit as K

K.workdir()
out = {}
cases = {
    "provider": lambda: Provider(name="ESA", roles=["producer", "host"], url="https://esa.int").model_dump(),
    "provider_bad_url": lambda: Provider(name="x", url="ftp://a"),
    "provider_no_name": lambda: Provider(roles=["host"]),
    "curator": lambda: Curator(name="Ann", email="ann@x.org", role="maintainer").model_dump(),
    "curator_org": lambda: Curator(organization="Lab").model_dump(),
    "curator_none": lambda: Curator(email="a@b.c"),
    "curator_email": lambda: Curator(name="Ann", email="ann.x.org"),
    "extent": lambda: Extent(spatial=[-10, 35, 5, 45], temporal=["2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z"]).model_dump(),
    "extent_antimeridian": lambda: Extent(spatial=[170, -10, -170, 10]).model_dump(),
    "extent_lat": lambda: Extent(spatial=[0, 50, 1, 40]),
    "extent_range": lambda: Extent(spatial=[-200, 0, 0, 1]),
    "extent_len": lambda: Extent(spatial=[0, 0, 1]),
    "extent_time_order": lambda: Extent(spatial=[0, 0, 1, 1], temporal=["2021-01-01", "2020-01-01"]),
    "extent_time_bad": lambda: Extent(spatial=[0, 0, 1, 1], temporal=["yesterday", "2020-01-01"]),
}
for name, fn in cases.items():
    try:
        out[name] = fn()
    except Exception as e:  # noqa: BLE001
        out[name] = {"class": type(e).__name__, "value_error": isinstance(e, ValueError)}
K.emit(out)
