# SPDX-License-Identifier: GPL-2.0-only
# scdoc | awk -f scripts/man-tidy.awk: scdoc 1.11 writes a .P paragraph
# macro where it does nothing (after .TH/.SH/.SS or another .P, before a
# heading or .RE, at the end), which mandoc -T lint reports as a warning;
# drop those, keep every other line as it is.
{ line[NR] = $0 }
END {
  prev = ""
  for (i = 1; i <= NR; i++) {
    if (line[i] == ".PP" || line[i] == ".P") {
      nxt = (i < NR) ? line[i + 1] : ""
      if (prev ~ /^\.(SH|SS|PP|P|TH)( |$)/ || nxt ~ /^\.(SH|SS|PP|P|TH|RE)( |$)/ || i == NR) continue
    }
    print line[i]; prev = line[i]
  }
}
