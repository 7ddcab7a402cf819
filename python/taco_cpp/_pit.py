"""The position-isomorphic tree schema (``taco:pit_schema``) as a small read-only object."""

import copy


class PitSchema:
    """``taco:pit_schema``: ``root`` ({"n", "type"}) and ``hierarchy`` ({"1": [patterns]...})."""

    def __init__(self, schema: dict):
        schema = schema or {"root": {"n": 0, "type": "FILE"}, "hierarchy": {}}
        self.root = dict(schema.get("root", {}))
        self.hierarchy = copy.deepcopy(schema.get("hierarchy", {}))

    def max_depth(self) -> int:
        """Deepest level below the root (0 for a dataset of one level)."""
        return max((int(k) for k in self.hierarchy), default=0)

    def to_dict(self) -> dict:
        """The schema as the JSON object of COLLECTION.json (a copy)."""
        return {"root": dict(self.root), "hierarchy": copy.deepcopy(self.hierarchy)}

    def with_n(self, n: int) -> "PitSchema":
        """A copy whose root has ``n`` rows."""
        d = self.to_dict()
        d["root"]["n"] = n
        return PitSchema(d)

    def is_compatible(self, other: "PitSchema") -> bool:
        """Same structure, counts ignored (what concat needs)."""
        if self.root.get("type") != other.root.get("type"):
            return False
        if set(self.hierarchy) != set(other.hierarchy):
            return False
        for depth, patterns in self.hierarchy.items():
            theirs = other.hierarchy[depth]
            if len(patterns) != len(theirs):
                return False
            for a, b in zip(patterns, theirs):
                if a.get("type") != b.get("type") or a.get("id") != b.get("id"):
                    return False
        return True

    def __eq__(self, other) -> bool:
        if isinstance(other, PitSchema):
            return self.to_dict() == other.to_dict()
        if isinstance(other, dict):
            return self.to_dict() == other
        return NotImplemented

    def __repr__(self) -> str:
        return f"PitSchema(root={self.root.get('type')}, n={self.root.get('n')}, max_depth={self.max_depth()})"
