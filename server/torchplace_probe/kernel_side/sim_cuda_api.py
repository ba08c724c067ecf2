"""The `torch.cuda` API of the simulated GPUs: what frameworks ask before they train.

Why: Lightning's GPU accelerator, `nn.DataParallel`, AMP's GradScaler and most
training scripts query the CUDA runtime (`get_device_capability`,
`is_bf16_supported`, `get_device_properties`, streams, events, memory figures,
RNG state) long before any tensor op.  On a CPU-only torch these raise ("Torch not
compiled with CUDA enabled"), so without answers the simulation would stop code
that runs fine on a GPU.  The answers come from one `GpuModel` (sim_state.MODEL).
"""
from __future__ import annotations

import gc
import time
import warnings
from typing import Any, Optional

import torch

from . import sim_state
from .sim_state import CURRENT, MARK, cuda_device, device_of, simulated_device


def _index(device: Any = None) -> int:
    if device is None:
        return CURRENT["device"]
    if isinstance(device, int):
        return cuda_device(device).index
    dev = device if isinstance(device, torch.device) else torch.device(device)
    return cuda_device(dev.index).index


class SimDeviceProperties:
    """What `torch.cuda.get_device_properties` answers (the fields frameworks read)."""

    def __init__(self, index: int) -> None:
        model = sim_state.MODEL
        self.name = model.name
        self.major, self.minor = model.capability
        self.total_memory = model.total_memory
        self.multi_processor_count = model.multi_processor_count
        self.is_integrated = 0
        self.is_multi_gpu_board = 0
        self.max_threads_per_multi_processor = 2048
        self.warp_size = 32
        self.regs_per_multiprocessor = 65536
        self.L2_cache_size = 40 * 1024 * 1024
        self.uuid = f"00000000-0000-0000-0000-00000000000{index}"
        self.gcnArchName = "NVIDIA"
        self.pci_bus_id = index
        self.pci_device_id = 0
        self.pci_domain_id = 0

    def __repr__(self) -> str:
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // (1024 * 1024)}MB, "
                f"multi_processor_count={self.multi_processor_count}, uuid={self.uuid}, "
                f"L2_cache_size={self.L2_cache_size // (1024 * 1024)}MB)")


class SimStream:
    """A CUDA stream: work is synchronous on the CPU, so every query says "done"."""

    def __init__(self, device: Any = None, priority: int = 0, **_ignored: Any) -> None:
        self.device = torch.device("cuda", _index(device))
        self.priority = priority
        self.cuda_stream = id(self)
        self.device_index = self.device.index
        self.device_type = 1

    def wait_event(self, event) -> None:
        return None

    def wait_stream(self, stream) -> None:
        return None

    def record_event(self, event=None):
        event = event or SimEvent()
        event.record(self)
        return event

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        return None

    def is_capturing(self) -> bool:
        return False

    def __enter__(self) -> "SimStream":  # torch.Stream is a context manager (torch.accelerator)
        return self

    def __exit__(self, *exc) -> None:
        return None

    def __eq__(self, other) -> bool:
        return isinstance(other, SimStream) and other.cuda_stream == self.cuda_stream

    def __hash__(self) -> int:
        return hash((self.cuda_stream, self.device))

    def __repr__(self) -> str:
        return f"<torch.cuda.Stream device={self.device} cuda_stream={self.cuda_stream:#x}>"


class SimEvent:
    """A CUDA event; `elapsed_time` measures the CPU's wall clock between the two records."""

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False) -> None:
        self.enable_timing = enable_timing
        self._time: Optional[float] = None

    def record(self, stream=None) -> None:
        self._time = time.perf_counter()

    def wait(self, stream=None) -> None:
        return None

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        return None

    def elapsed_time(self, end_event: "SimEvent") -> float:
        if not (self.enable_timing and end_event.enable_timing):
            raise ValueError("Both events must be created with argument 'enable_timing=True'.")
        if self._time is None or end_event._time is None:
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        return (end_event._time - self._time) * 1000.0


class SimStreamContext:
    """`with torch.cuda.stream(s):`."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def __enter__(self):
        return self.stream

    def __exit__(self, *exc) -> None:
        return None


_DEFAULT_STREAMS: dict = {}


def _default_stream(device=None) -> SimStream:
    index = _index(device)
    if index not in _DEFAULT_STREAMS:
        stream = SimStream(index)
        stream.cuda_stream = 0
        _DEFAULT_STREAMS[index] = stream
    return _DEFAULT_STREAMS[index]


_PEAK: dict = {}


def allocated_bytes(device: Any = None) -> int:
    """Bytes held by live tensors on one simulated device (storages counted once)."""
    index = _index(device)
    seen: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for obj in gc.get_objects():
            if isinstance(obj, torch.Tensor):
                info = getattr(obj, MARK, None)
                if info is not None and info.device is not None and info.device.index == index:
                    try:
                        storage = obj.untyped_storage()
                        seen[storage.data_ptr()] = storage.nbytes()
                    except (RuntimeError, NotImplementedError):
                        continue
    total = sum(seen.values())
    _PEAK[index] = max(_PEAK.get(index, 0), total)
    return total


def _memory_stats(device=None) -> dict:
    current = allocated_bytes(device)
    peak = _PEAK.get(_index(device), current)
    stats = {}
    for kind in ("allocated_bytes", "reserved_bytes", "active_bytes", "requested_bytes"):
        for pool in ("all", "large_pool", "small_pool"):
            stats[f"{kind}.{pool}.current"] = current if pool == "all" else 0
            stats[f"{kind}.{pool}.peak"] = peak if pool == "all" else 0
            stats[f"{kind}.{pool}.allocated"] = peak if pool == "all" else 0
            stats[f"{kind}.{pool}.freed"] = 0
    stats.update({"num_alloc_retries": 0, "num_ooms": 0, "num_sync_all_streams": 0,
                  "num_device_alloc": 0, "num_device_free": 0})
    return stats


def _rng_state(device=None) -> torch.Tensor:
    return torch.random.default_generator.get_state()


def _set_rng_state(state, device=None) -> None:
    torch.random.default_generator.set_state(state)


def _seed_cpu(seed) -> None:
    torch.random.default_generator.manual_seed(int(seed))


def _exchange_device(index: int) -> int:
    previous = CURRENT["device"]
    if index >= 0:
        CURRENT["device"] = cuda_device(index).index
    return previous


def _set_device(device) -> None:
    if isinstance(device, int) and device < 0:
        return
    CURRENT["device"] = _index(device)


def _noop():
    """A new do-nothing function (torch._dynamo indexes torch.cuda's functions by identity)."""
    def stand_in(*args: Any, **kwargs: Any) -> None:
        return None
    return stand_in


def _stand_in(value: Any):
    def answer(*args: Any, **kwargs: Any) -> Any:
        return value
    return answer


def cuda_api() -> dict:
    """(owner, attribute) -> stand-in, for every `torch.cuda` answer the simulation gives."""
    import torch.backends.cudnn as cudnn
    import torch.cuda as tc

    model = sim_state.MODEL
    api = {
        "is_available": lambda: True, "device_count": lambda: model.count, "current_device": lambda: CURRENT["device"],
        "is_initialized": lambda: True, "init": _noop(), "_lazy_init": _noop(),
        "get_device_name": lambda device=None: model.name,
        "get_device_capability": lambda device=None: (_index(device), model.capability)[1],
        "get_device_properties": lambda device=None: SimDeviceProperties(_index(device)),
        "is_bf16_supported": lambda including_emulation=True: model.bf16,
        "is_tf32_supported": lambda: model.capability[0] >= 8,
        "get_arch_list": lambda: [f"sm_{model.capability[0]}{model.capability[1]}"],
        "can_device_access_peer": lambda device, peer_device: True,
        "synchronize": _noop(), "ipc_collect": _noop(), "empty_cache": _noop(),
        "set_device": _set_device, "_exchange_device": _exchange_device, "_maybe_exchange_device": _exchange_device,
        "Stream": SimStream, "Event": SimEvent, "StreamContext": SimStreamContext,
        "stream": lambda stream=None: SimStreamContext(stream), "set_stream": _noop(),
        "current_stream": _default_stream, "default_stream": _default_stream,
        "memory_allocated": allocated_bytes, "memory_reserved": allocated_bytes,
        "max_memory_allocated": lambda device=None: max(allocated_bytes(device), _PEAK.get(_index(device), 0)),
        "max_memory_reserved": lambda device=None: max(allocated_bytes(device), _PEAK.get(_index(device), 0)),
        "reset_peak_memory_stats": lambda device=None: _PEAK.pop(_index(device), None) and None,
        "reset_max_memory_allocated": lambda device=None: _PEAK.pop(_index(device), None) and None,
        "reset_accumulated_memory_stats": _noop(),
        "memory_stats": _memory_stats,
        "memory_summary": lambda device=None, abbreviated=False: (
            f"Simulated GPU {_index(device)}: {allocated_bytes(device)} bytes held by live tensors\n"),
        "mem_get_info": lambda device=None: (model.total_memory - allocated_bytes(device), model.total_memory),
        "set_per_process_memory_fraction": _noop(),
        "manual_seed": _seed_cpu, "manual_seed_all": _seed_cpu,
        "seed": _noop(), "seed_all": _noop(),
        "initial_seed": lambda: torch.random.default_generator.initial_seed(),
        "get_rng_state": _rng_state, "set_rng_state": _set_rng_state,
        "get_rng_state_all": lambda: [_rng_state() for _ in range(model.count)],
        "set_rng_state_all": lambda states: [_set_rng_state(s) for s in states[:1]] and None,
        "utilization": lambda device=None: 0, "temperature": lambda device=None: 40,
        "power_draw": lambda device=None: 100_000, "clock_rate": lambda device=None: 1410,
    }
    table = {(tc, name): value for name, value in api.items() if hasattr(tc, name)}
    import torch.cuda.memory as tcm
    import torch.cuda.random as tcr

    for module in (tcm, tcr):
        for name, value in api.items():
            if hasattr(module, name):
                table[(module, name)] = value
    table[(cudnn, "is_available")] = lambda: True
    table[(cudnn, "version")] = lambda: 90100
    table[(cudnn, "is_acceptable")] = lambda tensor: False  # no cuDNN kernels behind the simulation
    return table


class SimDeviceIndex:
    """`with torch.accelerator.device_index(i):` / `with torch.cuda.device(i):`."""

    def __init__(self, device: Any) -> None:
        self.index = _index(device) if device is not None else None
        self.previous = None

    def __enter__(self):
        if self.index is not None:
            self.previous = _exchange_device(self.index)
        return self

    def __exit__(self, *exc) -> None:
        if self.previous is not None:
            _exchange_device(self.previous)


def accelerator_api() -> dict:
    """torch.accelerator (optimizers and DataParallel ask it for the current device and stream)."""
    import torch.accelerator as acc

    model = sim_state.MODEL
    api = {
        "is_available": lambda: True, "device_count": lambda: model.count,
        "current_accelerator": lambda check_available=False: torch.device("cuda"),
        "current_device_index": lambda: CURRENT["device"], "current_device_idx": lambda: CURRENT["device"],
        "set_device_index": _set_device, "set_device_idx": _set_device,
        "current_stream": _default_stream, "set_stream": _noop(), "synchronize": _noop(),
        "device_index": SimDeviceIndex,
    }
    table = {(acc, name): value for name, value in api.items() if hasattr(acc, name)}
    memory = getattr(acc, "memory", None)
    if memory is not None:
        for name, value in (("memory_allocated", allocated_bytes), ("memory_reserved", allocated_bytes),
                            ("empty_cache", _noop()), ("memory_stats", _memory_stats)):
            if hasattr(memory, name):
                table[(memory, name)] = value
    return table


def moved_to(t: torch.Tensor, device: Any) -> torch.Tensor:
    return t.to(simulated_device(device if not isinstance(device, int) else torch.device("cuda", device)))


def comm_api() -> dict:
    """torch.nn.parallel.comm (DataParallel's scatter, gather, broadcast and reduce) on simulated devices."""
    import torch.nn.parallel.comm as comm

    def broadcast(tensor, devices=None, *, out=None):
        targets = devices if devices is not None else [o.get_device() for o in out]
        copies = [moved_to(tensor, d) for d in targets]
        if out is not None:
            for o, c in zip(out, copies):
                o.copy_(c)
            return tuple(out)
        return tuple(copies)

    def broadcast_coalesced(tensors, devices, buffer_size=10485760):
        return [tuple(moved_to(t, d) for t in tensors) for d in devices]

    def reduce_add(inputs, destination=None):
        dest = destination if destination is not None else device_of(inputs[0])
        total = moved_to(inputs[0], dest).clone()
        for t in inputs[1:]:
            total.add_(moved_to(t, dest))
        return total

    def reduce_add_coalesced(inputs, destination=None, buffer_size=10485760):
        return [reduce_add(list(group), destination) for group in zip(*inputs)]

    def scatter(tensor, devices=None, chunk_sizes=None, dim=0, streams=None, *, out=None):
        targets = list(devices)
        chunks = tensor.split(list(chunk_sizes), dim) if chunk_sizes else tensor.chunk(len(targets), dim)
        return tuple(moved_to(c.contiguous(), d) for c, d in zip(chunks, targets))

    def gather(tensors, dim=0, destination=None, *, out=None):
        dest = "cpu" if destination == -1 else (destination if destination is not None else device_of(tensors[0]))
        return torch.cat([moved_to(t, dest) for t in tensors], dim)

    api = {"broadcast": broadcast, "broadcast_coalesced": broadcast_coalesced, "reduce_add": reduce_add,
           "reduce_add_coalesced": reduce_add_coalesced, "scatter": scatter, "gather": gather}
    return {(comm, name): value for name, value in api.items()}
