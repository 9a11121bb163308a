/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* libperfev: the umbrella header.  Include this, or the headers of the
 * concepts you use. */
#ifndef PERFEV_PERFEV_H
#define PERFEV_PERFEV_H

#include <perfev/common.h>
#include <perfev/sys.h>
#include <perfev/event.h>
#include <perfev/ring.h>
#include <perfev/user_page.h>
#include <perfev/arch.h>
#include <perfev/overflow.h>
#include <perfev/pmu.h>
#include <perfev/tracefs.h>
#include <perfev/target.h>
#include <perfev/counter.h>
#include <perfev/explain.h>
#include <perfev/probe.h>
#include <perfev/record.h>
#include <perfev/data.h>
#include <perfev/order.h>
#include <perfev/synth.h>
#include <perfev/topology.h>
#include <perfev/callchain.h>
#include <perfev/arch.h>
#include <perfev/region.h>

#endif
