"""Optional NVML sampling: the SM clock and power while something runs on the GPU.

Uses ``pynvml`` from the nvidia-ml-py wheel, imported only when a sampler starts. Without it (or
without a driver) the sampler still works as a context manager and returns None fields with the
reason in ``nvml``, so a caller never has to check first.
"""

import importlib
import threading

# NVML's clock-event ("throttle") reason bits, for a pynvml that does not name them itself.
REASONS = {0x1: "gpu_idle", 0x2: "applications_clocks_setting", 0x4: "sw_power_cap", 0x8: "hw_slowdown",
           0x10: "sync_boost", 0x20: "sw_thermal_slowdown", 0x40: "hw_thermal_slowdown",
           0x80: "hw_power_brake_slowdown", 0x100: "display_clock_setting", 0x200: "board_limit",
           0x400: "reliability"}


def _reason_names(nvml):
    """{bit: snake_case name} from pynvml's nvmlClocksThrottleReason* constants, else REASONS."""
    names = {}
    for attr in dir(nvml):
        if attr.startswith("nvmlClocksThrottleReason") and attr[24:] not in ("None", "All", "UserDefinedClocks"):
            bit = getattr(nvml, attr)
            if isinstance(bit, int) and bit and not bit & (bit - 1):   # single bits only
                names[bit] = "".join("_" + c.lower() if c.isupper() else c for c in attr[24:]).lstrip("_")
    return names or REASONS


def _version(nvml):
    import importlib.metadata as md
    try:
        return f"nvidia-ml-py {md.version('nvidia-ml-py')}"
    except md.PackageNotFoundError:
        return f"nvidia-ml-py {getattr(nvml, '__version__', '(version unknown)')}"


class ClockSampler:
    """``with ClockSampler(0) as s: run()`` samples GPU ``device`` every ``interval_s`` seconds in a
    background thread; afterwards ``s.result`` holds sm_clock_mhz_min/max, power_w_max,
    throttle_reasons (the clock-event reasons seen, gpu_idle left out: the sampler also runs just
    before and after the work, when the GPU is idle), samples, and nvml ("nvidia-ml-py X" or
    "unavailable: why"). ``device`` is a tcraw Device (found by its PCI bus id), NVML's index
    (nvidia-smi's: not CUDA's ordinal when CUDA_VISIBLE_DEVICES or CUDA_DEVICE_ORDER reorder them)
    or a PCI bus id string."""

    def __init__(self, device=0, interval_s=0.005):
        self.device, self.interval_s = device, interval_s
        self.result = None
        self._clocks, self._power, self._reasons = [], [], 0
        self._stop, self._thread, self._nvml, self._why = threading.Event(), None, None, None

    def __enter__(self):
        try:
            nvml = importlib.import_module("pynvml")
        except ImportError:
            self._why = "unavailable: pynvml is not installed (pip install nvidia-ml-py)"
            return self
        try:
            # a tcraw Device is found by its PCI bus id: CUDA's ordinals and NVML's indices can differ
            target = self.device if isinstance(self.device, (str, int)) else self.device.pci_bus_id
            nvml.nvmlInit()
            self._handle = (nvml.nvmlDeviceGetHandleByPciBusId(target) if isinstance(target, str)
                            else nvml.nvmlDeviceGetHandleByIndex(target))
        except Exception as exc:   # pynvml.NVMLError and its many subclasses: no driver, no such GPU
            self._why = f"unavailable: {type(exc).__name__}: {exc}"
            return self
        self._nvml = nvml
        # newer NVML calls them clock *event* reasons; the throttle spelling is the older alias
        self._get_reasons = getattr(nvml, "nvmlDeviceGetCurrentClocksEventReasons", None) or \
            nvml.nvmlDeviceGetCurrentClocksThrottleReasons
        self._thread = threading.Thread(target=self._loop, name="tcraw-nvml", daemon=True)
        self._thread.start()
        return self

    def _sample(self):
        nvml, h = self._nvml, self._handle
        self._clocks.append(nvml.nvmlDeviceGetClockInfo(h, nvml.NVML_CLOCK_SM))
        self._power.append(nvml.nvmlDeviceGetPowerUsage(h) / 1000.0)   # mW
        self._reasons |= self._get_reasons(h)

    def _loop(self):
        try:
            while True:
                self._sample()
                if self._stop.wait(self.interval_s):
                    return
        except Exception as exc:   # a sampling error ends the sampling, never the caller's run
            self._why = f"sampling stopped: {type(exc).__name__}: {exc}"

    def __exit__(self, *exc):
        nvml = self._nvml
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            if self._why is None:
                try:
                    self._sample()   # one sample at the very end, however short the run
                except Exception as e:
                    self._why = f"sampling stopped: {type(e).__name__}: {e}"
        if nvml is not None:
            try:
                nvml.nvmlShutdown()
            except Exception:
                pass
        names = _reason_names(nvml) if nvml is not None else REASONS
        self.result = {
            "sm_clock_mhz_min": min(self._clocks, default=None), "sm_clock_mhz_max": max(self._clocks, default=None),
            "power_w_max": max(self._power, default=None),
            "throttle_reasons": None if nvml is None else
            sorted(name for bit, name in names.items() if self._reasons & bit and name != "gpu_idle"),
            "samples": len(self._clocks),
            "nvml": (_version(nvml) + (f" ({self._why})" if self._why else "")) if nvml is not None else self._why,
        }
        return False

    def fields(self):
        """The record's fields (Record.sm_clock_mhz_min … nvml) from ``result``."""
        r = self.result or {}
        return {k: r.get(k) for k in ("sm_clock_mhz_min", "sm_clock_mhz_max", "power_w_max",
                                      "throttle_reasons", "nvml")}
