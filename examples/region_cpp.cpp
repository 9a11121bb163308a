// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Regions in C++: PEV_REGION("name") begins a region that ends with the
 * enclosing scope, on return and on throw too (perfev/region.hpp).
 *
 *	build/examples/region_cpp
 *	PERFEV_OUTPUT=csv:regions.csv build/examples/region_cpp
 *
 * Built with -DPERFEV_NO_REGIONS the regions compile to nothing and the
 * program links without libperfev (the Makefile checks that it does). */
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <vector>
#include <perfev/region.hpp>

static double mean(const std::vector<double> &v)
{
	PEV_REGION("mean");
	if (v.empty())
		throw std::invalid_argument("empty");	/* "mean" still ends */
	return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

static std::vector<double> fill(std::size_t n)
{
	PEV_REGION("fill");
	std::vector<double> v(n);
	for (std::size_t i = 0; i < n; i++)
		v[i] = static_cast<double>(i % 7);
	return v;
}

int main()
{
	double total = 0;

	for (int i = 0; i < 10; i++) {
		PEV_REGION("step");
		std::vector<double> v = fill(100000 * static_cast<std::size_t>(i + 1));
		total += mean(v);
		try {
			mean(std::vector<double>());
		} catch (const std::invalid_argument &) {
		}
	}
	{
		perfev::region r("tail");	/* the guard, named by hand */
		total += mean(fill(1000));
	}
	std::printf("total %.3f\n", total);
	return 0;	/* the report is written at exit */
}
