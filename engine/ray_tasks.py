"""Self-play games as Ray tasks (pip extra `cluster`), for scripts/selfplay and scripts/book:
on this machine, or on the cluster RAY_ADDRESS names.  Ray is imported only when asked for."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, Iterator

REPO = str(Path(__file__).resolve().parents[1])


def ray_map(function: Callable, calls: Iterable[tuple], cpus: int = 0) -> Iterator:
    """function(*call) for every call, run as Ray tasks; results in the order they finish."""
    import ray

    if not ray.is_initialized():
        ray.init(num_cpus=cpus or None, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    task = ray.remote(function).options(runtime_env={"env_vars": {"PYTHONPATH": REPO}})
    pending = [task.remote(*call) for call in calls]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        yield ray.get(done[0])
