/* demo.c -- a small program to profile: a hot leaf with two callers, a
 * self-recursive function and a cycle of two functions.  Built with -pg.
 * The call counts follow from the constants (README lists them). */
#include <stdint.h>

#define ROUNDS 16
#define WORDS 1024	/* fill and checksum: calls per round */
#define DEPTH 10		/* tree_sum: 2^DEPTH leaves per round */
#define COLLATZ_N 256	/* collatz_steps: starting values per round */

#define PROFILED __attribute__((noinline, noclone))

static uint32_t buffer[WORDS];

PROFILED static uint32_t next_random(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

PROFILED static void fill(uint32_t *state)
{
	for (unsigned i = 0; i < WORDS; i++)
		buffer[i] = next_random(state);
}

/* The hot leaf: a few rounds of multiply and rotate. */
PROFILED static uint32_t mix(uint32_t h, uint32_t v)
{
	for (unsigned i = 0; i < 64; i++) {
		h = (h ^ v) * 0x9e3779b1u;
		h = (h << 7) | (h >> 25);
		v += i;
	}
	return h;
}

PROFILED static uint32_t checksum(void)
{
	uint32_t h = 0;

	for (unsigned i = 0; i < WORDS; i++)
		h = mix(h, buffer[i]);
	return h;
}

/* Self-recursive: 2^(depth+1) - 1 calls, mix at each of the 2^depth leaves. */
PROFILED static uint32_t tree_sum(unsigned depth, uint32_t x)
{
	if (depth == 0)
		return mix(x, depth);
	return tree_sum(depth - 1, x * 3) + tree_sum(depth - 1, x * 5 + 1);
}

/* A cycle: collatz_even and collatz_odd call each other (and
 * collatz_even itself) until the sequence reaches 1. */
PROFILED static unsigned collatz_odd(uint32_t n);

PROFILED static unsigned collatz_even(uint32_t n)
{
	n /= 2;
	return 1 + (n & 1 ? collatz_odd(n) : collatz_even(n));
}

PROFILED static unsigned collatz_odd(uint32_t n)
{
	if (n == 1)
		return 0;
	return 1 + collatz_even(3 * n + 1);
}

PROFILED static unsigned collatz_steps(uint32_t n)
{
	return n & 1 ? collatz_odd(n) : collatz_even(n);
}

int main(void)
{
	uint32_t state = 2463534242u, result = 0;

	for (unsigned round = 0; round < ROUNDS; round++) {
		fill(&state);
		result ^= checksum();
		result ^= tree_sum(DEPTH, result);
		for (uint32_t n = 1; n <= COLLATZ_N; n++)
			result += collatz_steps(n + round * COLLATZ_N);
	}
	/* (the result is the run's output: it keeps the work from being
	 * optimised away) */
	return result == 0;
}
