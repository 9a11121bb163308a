/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Private to the target and workload sources. */
#ifndef PEV_TARGET_PRIV_H
#define PEV_TARGET_PRIV_H

#include <perfev/target.h>

#endif
