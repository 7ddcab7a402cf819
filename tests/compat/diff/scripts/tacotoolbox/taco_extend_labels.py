# T79: Labels(label_classes=[LabelClass(...)], label_description=) on a Taco: labels:*
# attributes (category as text, num_classes).
from tacotoolbox.datamodel import Sample, Tortilla
from tacotoolbox.datamodel.taco import LabelClass, Labels
import _tbkit as K

wd = K.workdir()
t = K.taco(Tortilla([Sample(id="a", path=K.make_files(wd, 1)[0])]))
t.extend_with(Labels(label_classes=[LabelClass(name="water", category=0, description="open water"),
                                    LabelClass(name="land", category="L")], label_description="two classes"))
K.emit({k: getattr(t, k) for k in ("labels:classes", "labels:description", "labels:num_classes")})
