"""taco_cpp.torch over a remote ZIP served by nginx on loopback: one request per sample."""

import re

import numpy as np
import pytest

import taco_cpp as tc
from taco_cpp.torch import TacoDataLoader, TacoIterableDataset

from conftest import N_TILES, gdal_read

RANGE = re.compile(r"bytes=(\d+)-(\d+)")


def ranges(lines):
    out = []
    for line in lines:
        m = RANGE.search(line)
        out.append((int(m.group(1)), int(m.group(2))) if m else None)
    return out


@pytest.mark.parametrize("workers", [0, 2])
def test_remote_zip_through_the_dataloader_costs_one_request_per_sample(data, nginx, workers):
    url = f"{nginx.url}/{data.nested_zip.name}"
    ds = TacoIterableDataset(tc.load(url, cache=False), files=["image.tif", "mask.tif"], seed=6, batch_size=2,
                             as_tensor=False)
    plan = ds.source.plan()
    spans = {}
    for row in range(N_TILES):
        locs = [plan.location(row, f) for f in range(2)]
        spans[plan.id(row)] = (min(loc[1] for loc in locs), max(loc[1] + loc[2] for loc in locs) - 1)
    mark = len(nginx.settled_lines())
    seen = []
    for batch in TacoDataLoader(ds, batch_size=2, num_workers=workers, timeout=120 if workers else 0):
        seen.extend(batch["metadata"]["id"])
        if len(seen) <= 2:  # the bytes are right
            i = int(batch["metadata"]["id"][0][5:])
            np.testing.assert_array_equal(batch["image.tif"][0], gdal_read(data.image(i)))
            np.testing.assert_array_equal(batch["mask.tif"][0], gdal_read(data.mask(i)))
    assert sorted(seen) == sorted(spans)
    got = ranges(nginx.settled_lines()[mark:])
    assert all(r is not None for r in got), "every request is a ranged GET"
    for sample_id, (lo, hi) in spans.items():
        covering = [r for r in got if r[0] <= lo and r[1] >= hi]
        assert len(covering) == 1, f"{sample_id}: {len(covering)} requests hold both of its files"
        assert covering[0][1] == hi  # nothing read past the sample's last file
    assert len(got) == N_TILES  # one per sample; workers reopen nothing (the plan survives fork)
