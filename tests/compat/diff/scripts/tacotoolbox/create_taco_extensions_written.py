# T69/T79/T81/T82: collection extensions (Labels, Publications, SplitStrategy, a dict) and
# Curator/keywords/title written into COLLECTION.json.
import tacotoolbox
from tacotoolbox.datamodel import Sample, Tortilla
from tacotoolbox.datamodel.taco import Curator, LabelClass, Labels, Publication, Publications, SplitStrategy
import _tbkit as K

wd = K.workdir()
samples = [Sample(id=f"s{k}", path=f) for k, f in enumerate(K.make_files(wd, 2))]
t = K.taco(Tortilla(samples), title="A title", keywords=["eo", "test"],
           curators=[Curator(name="Ann", email="ann@x.org"), {"organization": "Lab"}])
t.extend_with(Labels(label_classes=[LabelClass(name="a", category=0), LabelClass(name="b", category=1, description="bee")]))
t.extend_with(Publications(publications=[Publication(doi="10.1/x", citation="X 2024")]))
t.extend_with(SplitStrategy(strategy="random"))
t.extend_with({"project": {"name": "p", "year": 2024}})
tacotoolbox.create(t, wd / "w" / "coll")
K.emit(K.dump(wd / "w" / "coll"))
