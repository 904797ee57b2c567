pragma circom 2.1.0;
include "circomlib/circuits/bitify.circom";
include "circomlib/circuits/comparators.circom";
// A quadratic chain t_{i+1} = t_i^2 + c from the public x, plus range checks and a
// comparison from circomlib (whose bit wires leave A/B query points at infinity).
// Public: x and bound (inputs), y and below (outputs).
template RoundTrip(N, BITS) {
    signal input x;
    signal input c;
    signal input v;
    signal input bound;
    signal output y;
    signal output below;
    signal t[N + 1];
    t[0] <== x;
    for (var i = 0; i < N; i++) {
        t[i + 1] <== t[i] * t[i] + c;
    }
    y <== t[N];
    component bits = Num2Bits(BITS);
    bits.in <== v;
    component lt = LessThan(BITS);
    lt.in[0] <== v;
    lt.in[1] <== bound;
    below <== lt.out;
}
component main {public [x, bound]} = RoundTrip(200, 64);
