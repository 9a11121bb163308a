// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* libperfev: regions in C++, ended by scope (see perfev/region.h).
 *
 *	void solve()
 *	{
 *		PEV_REGION("solve");
 *		...
 *	}			// ends here, on return and on throw too
 *
 * perfev::region begins region name in its constructor and ends it in its
 * destructor, in the constructing thread.  It is neither copyable nor
 * movable (a region begun in one scope ends in that scope).  The name is
 * kept, not copied: it must stay valid until the report, as for
 * pev_region_begin (a string literal is the usual thing).  Constructor and
 * destructor never throw and never fail; what cannot be done is reported
 * once on stderr by the library.
 *
 * PEV_REGION("name") declares such a guard with a name of its own
 * (pev_region_guard_<counter>), so several may share a scope, and a line.
 *
 * PERFEV_NO_REGIONS, defined before this header is included (e.g.
 * -DPERFEV_NO_REGIONS), compiles the regions of this translation unit to
 * nothing: perfev::region is an empty guard, and the calls
 * pev_region_init(events), pev_region_begin(name), pev_region_end(name) and
 * pev_region_report() become expressions that only evaluate their
 * arguments (init and report give 0), so a program that uses nothing else
 * of libperfev links without it.  The read functions (pev_region_get,
 * pev_region_nr_events, pev_region_event_name) stay as they are.  C
 * translation units include perfev/region.h and are not affected.
 *
 * C++11 or later. */
#ifndef PERFEV_REGION_HPP
#define PERFEV_REGION_HPP

#include <perfev/region.h>

#define PEV_REGION_CAT2_(a, b) a##b
#define PEV_REGION_CAT_(a, b) PEV_REGION_CAT2_(a, b)
#ifdef __COUNTER__
#define PEV_REGION_UNIQUE_ PEV_REGION_CAT_(pev_region_guard_, __COUNTER__)
#else
#define PEV_REGION_UNIQUE_ PEV_REGION_CAT_(pev_region_guard_, __LINE__)
#endif

/* Begin region name here; it ends where the enclosing scope does. */
#define PEV_REGION(name) ::perfev::region PEV_REGION_UNIQUE_(name)

#ifdef PERFEV_NO_REGIONS
/* After region.h, so that its declarations are not rewritten. */
#undef pev_region_init
#undef pev_region_begin
#undef pev_region_end
#undef pev_region_report
#define pev_region_init(events) ((void)(events), 0)
#define pev_region_begin(name) ((void)(name))
#define pev_region_end(name) ((void)(name))
#define pev_region_report() 0
#endif

namespace perfev {

class region {
public:
#ifdef PERFEV_NO_REGIONS
	explicit region(const char *) noexcept {}
	~region() noexcept {}
#else
	/* Begin one call of region name in this thread. */
	explicit region(const char *name) noexcept : name_(name)
	{
		pev_region_begin(name_);
	}
	/* End it (the innermost open call of that name in this thread). */
	~region() noexcept
	{
		pev_region_end(name_);
	}
#endif
	region(const region &) = delete;
	region &operator=(const region &) = delete;

#ifndef PERFEV_NO_REGIONS
private:
	const char *name_;
#endif
};

} /* namespace perfev */

#endif
