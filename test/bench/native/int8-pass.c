/*
 * The identify bench's floor: one pass over a file of int8 rows, the dot product of each with one
 * int16 probe (what the engine's kernel computes per row), on one core, compiled with -O3
 * -march=native so the compiler vectorises it for this machine. The rows are read into memory once;
 * each line on stdin runs one pass and answers "<milliseconds> <checksum>".
 *
 *   int8-pass <rows file> <rows> <stride>
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  long count = atol(argv[2]), stride = atol(argv[3]);
  int8_t *rows = (int8_t *)aligned_alloc(64, (size_t)(count * stride + 63) / 64 * 64);
  int16_t *probe = (int16_t *)aligned_alloc(64, (size_t)(stride * 2 + 63) / 64 * 64);
  int32_t *out = (int32_t *)malloc((size_t)count * 4);
  FILE *file = fopen(argv[1], "rb");
  if (!rows || !probe || !out || !file || fread(rows, 1, (size_t)(count * stride), file) != (size_t)(count * stride)) return 1;
  fclose(file);
  for (long i = 0; i < stride; i++) probe[i] = (int16_t)((i * 7919) % 65535 - 32767);
  char line[64];
  while (fgets(line, sizeof line, stdin)) {
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long r = 0; r < count; r++) {
      const int8_t *row = rows + r * stride;
      int32_t sum = 0;
      for (long i = 0; i < stride; i++) sum += (int32_t)probe[i] * row[i];
      out[r] = sum;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    int32_t check = 0;
    for (long r = 0; r < count; r += 997) check ^= out[r];
    printf("%.4f %d\n", (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6, check);
    fflush(stdout);
  }
  return 0;
}
