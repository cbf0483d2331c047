"""Writes a function of N nested scf.execute_region regions (argv[1]): deep
enough, it overflows the stack of MLIR's recursive parser
(test/Tools/untrusted-input.test)."""
import sys

depth = int(sys.argv[1])
print("func.func @nested() -> i32 {")
for level in range(depth):
    print(f"%v{level} = scf.execute_region -> i32 {{")
print("%c = arith.constant 0 : i32")
print("scf.yield %c : i32")
for level in reversed(range(depth)):
    print("}")
    if level:
        print(f"scf.yield %v{level} : i32")
print("return %v0 : i32")
print("}")
