// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* arm64's exception-level rules for the exclude_* bits, and the counter
 * registers behind a control page's index (the kernel's
 * Documentation/arch/arm64/perf.rst and the PMUv3 architecture).
 *
 *   EL0 user space; EL1 the kernel without VHE, and a guest's kernel;
 *   EL2 the kernel under VHE (it is the hypervisor), else the hypervisor.
 *   exclude_user:   EL0.
 *   exclude_kernel: EL1, and EL2 too on a VHE host.
 *   exclude_hv:     EL2 on a non-VHE host; ignored under VHE and in guests.
 *   A guest never counts EL2. */
#include <errno.h>
#include <stdio.h>

#include <perfev/arch.h>

PEV_EXPORT unsigned pev_arm64_levels(const struct perf_event_attr *attr,
				     bool vhe, bool guest)
{
	unsigned el = 0;

	if (!attr)
		return 0;
	if (!attr->exclude_user)
		el |= PEV_EL0;
	if (guest) {
		if (!attr->exclude_kernel)
			el |= PEV_EL1;
	} else if (vhe) {
		if (!attr->exclude_kernel)
			el |= PEV_EL1 | PEV_EL2;
	} else {
		if (!attr->exclude_kernel)
			el |= PEV_EL1;
		if (!attr->exclude_hv)
			el |= PEV_EL2;
	}
	return el;
}

PEV_EXPORT int pev_arm64_counter_reg(uint32_t index, char *buf, size_t size)
{
	/* index is the hardware counter + 1; counter 31 is the cycle counter. */
	if (index == 0 || index > 32)
		return -EINVAL;
	if (index == 32)
		snprintf(buf, size, "PMCCNTR_EL0");
	else
		snprintf(buf, size, "PMEVCNTR%u_EL0", (unsigned)(index - 1));
	return 0;
}
