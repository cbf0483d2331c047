"""Runs a shared library's _mlir_ciface_<f> with the seed kernel's signature.

usage: run-seed-library.py LIB.so FUNC N G K

The seed form (docs/abi.md): weights NxGxK i8, scales and zero-points NxGx1
f32, activation 1x1xGxK f32, result 1x1xN f32, each passed as a pointer to
a memref descriptor. The inputs are deterministic (a fixed-seed generator);
prints each result element's bits (so two libraries can be compared exactly)
and the normalized error max|out - ref| / max|ref| against a float64
reference of the matmul followed by max(x, 0), with PASS at <= 1e-5.
"""
import ctypes
import os
import random
import struct
import sys


def descriptor(rank, element):
    fields = [("allocated", ctypes.POINTER(element)),
              ("aligned", ctypes.POINTER(element)),
              ("offset", ctypes.c_int64),
              ("sizes", ctypes.c_int64 * rank),
              ("strides", ctypes.c_int64 * rank)]
    return type("memref%d" % rank, (ctypes.Structure,), {"_fields_": fields})


def memref(values, shape, element):
    array = (element * len(values))(*values)
    result = descriptor(len(shape), element)()
    result.allocated = result.aligned = ctypes.cast(array, ctypes.POINTER(element))
    result.offset = 0
    stride = 1
    for dim in reversed(range(len(shape))):
        result.sizes[dim] = shape[dim]
        result.strides[dim] = stride
        stride *= shape[dim]
    return result, array


def main():
    library, function, n, g, k = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    generator = random.Random(20261205)
    weights = [generator.randrange(256) for _ in range(n * g * k)]
    scales = [generator.uniform(0.01, 0.1) for _ in range(n * g)]
    zero_points = [float(generator.randrange(100, 156)) for _ in range(n * g)]
    activation = [generator.uniform(-1.0, 1.0) for _ in range(g * k)]
    # The f32 values the kernel sees.
    scales = [struct.unpack("f", struct.pack("f", v))[0] for v in scales]
    activation = [struct.unpack("f", struct.pack("f", v))[0] for v in activation]

    kept = []
    arguments = []
    for values, shape, element in (
            (weights, (n, g, k), ctypes.c_uint8),
            (scales, (n, g, 1), ctypes.c_float),
            (zero_points, (n, g, 1), ctypes.c_float),
            (activation, (1, 1, g, k), ctypes.c_float),
            ([0.0] * n, (1, 1, n), ctypes.c_float)):
        structure, array = memref(values, shape, element)
        kept.append((structure, array))
        arguments.append(ctypes.byref(structure))
    getattr(ctypes.CDLL(os.path.abspath(library)), "_mlir_ciface_" + function)(*arguments)
    result = kept[-1][1]

    reference = []
    for row in range(n):
        total = 0.0
        for group in range(g):
            scale = scales[row * g + group]
            zero_point = zero_points[row * g + group]
            for index in range(k):
                weight = weights[(row * g + group) * k + index]
                total += activation[group * k + index] * (weight - zero_point) * scale
        reference.append(max(total, 0.0))
    for row in range(n):
        print("result[%d] = %08x" % (row, struct.unpack("I", struct.pack("f", result[row]))[0]))
    largest = max(abs(value) for value in reference) or 1.0
    error = max(abs(result[row] - reference[row]) for row in range(n)) / largest
    print("normalized error %.2e: %s" % (error, "PASS" if error <= 1e-5 else "FAIL"))


main()
