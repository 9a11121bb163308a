// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer harness: open a perf.data image from memory and walk every
 * record in file order and in time order. */
#include <stddef.h>
#include <stdint.h>

#include <perfev/perfev.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct pev_data *d = pev_data_open_mem(data, size, NULL, err, sizeof(err));
	struct pev_data_event ev;

	if (!d)
		return 0;
	while (pev_data_next(d, &ev) > 0)
		;
	pev_data_rewind(d);
	while (pev_data_next_ordered(d, &ev) > 0)
		;
	pev_data_close(d);
	return 0;
}
