/* perf-prog.c -- the program the guide's recipes build and run in the
 * suite (compare.sh: Make and CMake; forge.sh: GitHub Actions and GitLab
 * CI): step is called CALLS times, work does the time. */
#include <string.h>
static volatile double sum;
__attribute__((noinline)) static void work(long n) { for (long i = 0; i < n; i++) sum += i * 0.5; }
__attribute__((noinline)) static void step(void) { sum += 1; }
int main(int argc, char **argv)
{
	long n = argc > 1 && strcmp(argv[1], "--bench") == 0 ? 50000000 : 1000;
	for (int i = 0; i < CALLS; i++) step();
	work(n);
	return 0;
}
