"""tcraw: tensor-core matmul kernels compiled with NVRTC and run through the raw CUDA driver API.

The flow, one module per step: compiler (NVRTC → cubin) · runtime (device, buffers, modules,
launch, events) · kernels (the registry) · precision (quantization, reference, error model) ·
matmul (the run) · report · cli. Every cu*/nvrtc* call lives in tcraw.driver.
"""

__version__ = "0.1.0"
