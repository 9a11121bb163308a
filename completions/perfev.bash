# SPDX-License-Identifier: GPL-2.0-only
# bash completion for perfev.  `make install` puts it where bash-completion
# loads it on demand (BASHCOMPDIR, by default
# PREFIX/share/bash-completion/completions/perfev); without bash-completion,
# `source` it from ~/.bashrc.  It needs nothing but bash's own `complete`.
#
# Everything it offers comes from the perfev being completed (the one typed
# with a path, else the first in PATH), so it never falls behind the
# binary's option tables:
#   perfev --list-cmds                 the commands
#   perfev CMD --list-opts             a command's options
#   perfev CMD --list-values OPTION    the values an option accepts: sort
#                                      keys, -F fields, --to formats, event
#                                      names (perfev list --raw-dump's)
# -i/-o and the other file options complete file names; after `--`, stat and
# record complete a command and then its own arguments.

# The options whose value is a file (or, for --symfs, a directory).
_perfev_file_opts=' -i --input -o --output -k --vmlinux --kallsyms --diff --pre --post '

# COMPREPLY gets the candidates (one a line in $1) that start with $2, each
# with $3 in front.
_perfev_add()
{
	local v
	while IFS= read -r v; do
		[[ -n $v && $v == "$2"* ]] && COMPREPLY+=("$3$v")
	done <<<"$1"
}

_perfev()
{
	local line=${COMP_LINE:0:COMP_POINT} cur='' prev='' cmd='' perfev
	local -a w
	local i

	COMPREPLY=()
	# The words before the cursor, split at blanks only (COMP_WORDS is
	# also split at ':' and '=', which event names and --opt=value hold).
	read -r -a w <<<"$line"
	if [[ ${#w[@]} -gt 0 && $line != *[[:blank:]] ]]; then
		cur=${w[${#w[@]}-1]}
		unset 'w[${#w[@]}-1]'
	fi
	[[ ${#w[@]} -gt 0 ]] || return 0
	perfev=${w[0]}
	[[ $perfev == */* ]] && perfev=${perfev/#\~/$HOME} || perfev=$(type -P perfev) || return 0
	[[ ${#w[@]} -gt 1 ]] && cmd=${w[1]} prev=${w[${#w[@]}-1]}

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			_perfev_add $'--help\n--version' "$cur" ''
		else
			_perfev_add "$("$perfev" --list-cmds 2>/dev/null | tr ' ' '\n')" "$cur" ''
		fi
	else
		# After `--`: stat's and record's workload.
		for ((i = 2; i < ${#w[@]}; i++)); do
			[[ ${w[i]} == -- ]] || continue
			if [[ $cmd == stat || $cmd == record ]]; then
				if declare -F _command_offset >/dev/null; then
					# bash-completion: the command's own completion
					for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do
						if [[ ${COMP_WORDS[i]} == -- ]]; then
							_command_offset $((i + 1))
							return 0
						fi
					done
				fi
				if [[ ${w[${#w[@]}-1]} == -- ]]; then
					mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u)
					return 0
				fi
			fi
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return 0
		done

		local opt='' val='' pre=''
		if [[ $cur == --*=* ]]; then		# --sort=VALUE
			opt=${cur%%=*} val=${cur#*=} pre=$opt=
		elif [[ $prev == -* && $prev != -- && ${#w[@]} -gt 2 ]]; then
			opt=$prev val=$cur
		fi
		if [[ -n $opt && $_perfev_file_opts == *" $opt "* ]]; then
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$val")
			[[ -n $pre ]] && COMPREPLY=("${COMPREPLY[@]/#/$pre}")
		elif [[ -n $opt && $opt == --symfs ]]; then
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -d -- "$val")
			[[ -n $pre ]] && COMPREPLY=("${COMPREPLY[@]/#/$pre}")
		elif [[ -n $opt ]]; then
			local values
			# -F +sym / -F -ip, key,key,...: complete the last item
			values=$("$perfev" "$cmd" --list-values "$opt" 2>/dev/null)
			if [[ -n $values ]]; then
				local item=${val##*,}
				[[ $val == *,* ]] && pre+=${val%,*},
				[[ $item == [+-]* ]] && pre+=${item:0:1} item=${item:1}
				_perfev_add "$values" "$item" "$pre"
			fi
		fi
		if [[ ${#COMPREPLY[@]} -eq 0 && -z $pre && $cur == -* ]]; then
			_perfev_add "$("$perfev" "$cmd" --list-opts 2>/dev/null | tr ' ' '\n')" "$cur" ''
		fi
	fi

	# Readline replaces only the text after the last word-break character
	# (':' of sched:sched_switch, '=' of --sort=): drop what comes before.
	local wb=${COMP_WORDBREAKS-$' \t\n"\'><=;|&(:'} text=$cur
	for ((i = ${#cur} - 1; i >= 0; i--)); do
		if [[ $wb == *"${cur:i:1}"* ]]; then
			text=${cur:i+1}
			break
		fi
	done
	local cut=$((${#cur} - ${#text}))
	if ((cut > 0)); then
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=${COMPREPLY[i]:cut}
		done
	fi
	return 0
}

complete -o default -F _perfev perfev
