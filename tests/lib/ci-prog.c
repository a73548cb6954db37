/* ci-prog.c -- the program tests/forge.sh builds and runs through the
 * guide's CI recipes: step is called CALLS times, work does the time. */
#include <string.h>
static volatile double sum;
__attribute__((noinline)) static void work(long n) { for (long i = 0; i < n; i++) sum += i * 0.5; }
__attribute__((noinline)) static void step(void) { sum += 1; }
int main(int argc, char **argv)
{
	long n = argc > 1 && strcmp(argv[1], "--bench") == 0 ? 30000000 : 1000;
	for (int i = 0; i < CALLS; i++) step();
	work(n);
	return 0;
}
