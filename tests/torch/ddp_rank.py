"""One rank of the 2-process gloo test (test_ddp.py): iterates a TacoIterableDataset whose
rank and world size come from the process group, and gathers every rank's ids on rank 0.

usage: ddp_rank.py RANK WORLD PORT DATASET OUT.json
"""

import json
import sys

import torch.distributed as dist

import taco_cpp as tc
from taco_cpp.torch import TacoDataLoader, TacoIterableDataset


def main():
    rank, world, port, path, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    result = {}
    odd = tc.load(path).sql("SELECT * FROM data WHERE count < 23")  # 23 rows: 12 + 11
    for name, view, kw, workers in [("even", tc.load(path), {}, 0), ("odd", odd, {}, 0),
                                    ("odd_pad", odd, {"pad": True}, 2), ("odd_drop", odd, {"drop_last": True}, 0)]:
        ds = TacoIterableDataset(view, files=["mask.tif"], seed=8, batch_size=2, **kw)
        assert (ds.rank, ds.world_size) == (rank, world), (ds.rank, ds.world_size)
        loader = TacoDataLoader(ds, batch_size=2, num_workers=workers, timeout=120 if workers else 0)
        for epoch in (0, 1):
            ds.set_epoch(epoch)
            ids = [i for b in loader for i in b["metadata"]["id"]]
            gathered = [None] * world
            dist.all_gather_object(gathered, ids)
            result[f"{name}/{epoch}"] = gathered
    if rank == 0:
        with open(out, "w") as f:
            json.dump(result, f)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
