// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer: x86 instruction lengths stay within the bytes given and
 * within 1..15, and do not depend on bytes past the instruction. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/insn.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int mode64 = 0; mode64 < 2; mode64++) {
		/* An exact-size copy, so that ASan sees any read past it. */
		uint8_t *copy = malloc(size ? size : 1);
		int n;

		if (!copy)
			return 0;
		memcpy(copy, data, size);
		n = pev_x86_insn_length(copy, size, mode64);
		if (n > 0 && (n > 15 || (size_t)n > size))
			abort();
		if (n <= 0 && n != -ENODATA && n != -EINVAL)
			abort();
		/* The instruction alone decodes to the same length. */
		if (n > 0 && pev_x86_insn_length(copy, (size_t)n, mode64) != n)
			abort();
		free(copy);
	}
	return 0;
}
