"""labels:classes, labels:description, labels:num_classes."""

from __future__ import annotations

import pyarrow as pa

from ..._model import REQUIRED, Model
from ..datamodel import TacoExtension


class LabelClass(Model):
    """``LabelClass(name=, category=, description=None)`` (category int or str)."""

    _fields = (("name", REQUIRED), ("category", REQUIRED), ("description", None))


class Labels(TacoExtension):
    """``Labels(label_classes=[LabelClass, ...], label_description=None)``."""

    _fields = (("label_classes", REQUIRED), ("label_description", None))

    def _validate(self):
        object.__setattr__(self, "label_classes",
                           [c if isinstance(c, LabelClass) else LabelClass(**c) for c in self.label_classes])

    def get_schema(self) -> pa.Schema:
        cls = pa.struct([pa.field("name", pa.string()), pa.field("category", pa.string()),
                         pa.field("description", pa.string())])
        return pa.schema([pa.field("labels:classes", pa.list_(cls)), pa.field("labels:description", pa.string()),
                          pa.field("labels:num_classes", pa.int32())])

    def get_field_descriptions(self) -> dict[str, str]:
        return {
            "labels:classes": "List of class definitions with name, category ID, and optional description",
            "labels:description": "Overall description of labeling scheme, methodology, or data source",
            "labels:num_classes": "Total number of classes in the dataset",
        }

    def _compute(self, taco) -> pa.Table:
        classes = [{"name": c.name, "category": str(c.category), "description": c.description}
                   for c in self.label_classes]
        return pa.Table.from_pylist([{"labels:classes": classes, "labels:description": self.label_description,
                                      "labels:num_classes": len(self.label_classes)}])
