"""scaling:* (unpacked = packed * scale_factor + scale_offset), scalars or per-band lists."""

from __future__ import annotations

import pyarrow as pa

from ..datamodel import SampleExtension


class Scaling(SampleExtension):
    """``Scaling(scale_factor=None, scale_offset=None, padding=None)``; factor and offset a
    float or a list of floats (one per band); padding [top, right, bottom, left]."""

    _fields = (("scale_factor", None), ("scale_offset", None), ("padding", None))

    def _validate(self):
        f = self.scale_factor
        if isinstance(f, (list, tuple)):
            if any(x == 0.0 for x in f):
                raise ValueError("scale_factor cannot contain zero values")
            object.__setattr__(self, "scale_factor", [float(x) for x in f])
        elif f is not None:
            if f == 0.0:
                raise ValueError("scale_factor cannot be zero")
            object.__setattr__(self, "scale_factor", float(f))
        o = self.scale_offset
        if isinstance(o, (list, tuple)):
            object.__setattr__(self, "scale_offset", [float(x) for x in o])
        elif o is not None:
            object.__setattr__(self, "scale_offset", float(o))
        if self.padding is not None:
            if len(self.padding) != 4:
                raise ValueError("padding must be a list of 4 integers [top, right, bottom, left]")
            object.__setattr__(self, "padding", [int(x) for x in self.padding])

    def _lists(self) -> bool:
        return isinstance(self.scale_factor, list) or isinstance(self.scale_offset, list)

    def get_schema(self) -> pa.Schema:
        t = pa.list_(pa.float32()) if self._lists() else pa.float32()
        return pa.schema([pa.field("scaling:scale_factor", t), pa.field("scaling:scale_offset", t),
                          pa.field("scaling:padding", pa.list_(pa.int32()))])

    def get_field_descriptions(self) -> dict[str, str]:
        return {
            "scaling:scale_factor": "Multiplicative scaling factor for unpacking data (Float32 or List[Float32])",
            "scaling:scale_offset": "Additive offset for unpacking data (Float32 or List[Float32])",
            "scaling:padding": "Spatial padding [top, right, bottom, left] in pixels (List[Int32])",
        }

    def _compute(self, sample) -> pa.Table:
        f, o = self.scale_factor, self.scale_offset
        if self._lists():
            f = f if isinstance(f, list) or f is None else [f]
            o = o if isinstance(o, list) or o is None else [o]
        return pa.Table.from_pydict({"scaling:scale_factor": [f], "scaling:scale_offset": [o],
                                     "scaling:padding": [self.padding]}, schema=self.get_schema())
