# bash completion for planner(1): commands, each command's options, and
# the values of options that take a fixed set (formats, tasks, precisions,
# providers), and model and GPU names from `planner models` and `planner
# gpus` at completion time. Installed as
# share/bash-completion/completions/planner. Only file names are completed
# as files (compopt -o filenames there, not on `complete`), so `prov<Tab>`
# gives the command providers, not a directory providers/ beside it.

# The first column of `planner models|gpus --format csv`, one per line,
# from the planner being completed (COMP_WORDS[0]).
_planner_names()
{
	local bin=${COMP_WORDS[0]}
	command -v "$bin" >/dev/null 2>&1 || bin=planner
	"$bin" "$1" --format csv 2>/dev/null | while IFS=, read -r name _; do
		[[ $name == id || $name == name || -z $name ]] || printf '%s\n' "$name"
	done
}

# COMPREPLY: the names of $1 (models|gpus) that start with $cur, quoted for
# the command line ("RTX 4090" as RTX\ 4090).
_planner_complete_names()
{
	local IFS=$'\n' name want=${cur//\\/}
	want=${want#[\"\']}
	COMPREPLY=()
	for name in $(_planner_names "$1"); do
		[[ $name == "$want"* ]] && COMPREPLY+=("$(printf '%q' "$name")")
	done
}

_planner()
{
	local cur prev cmd
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	local commands="init compare fit offers refresh providers models gpus schedule breakeven report diff history probe fleet"
	local common="--db --format --help --verbose"

	# The command is always the first word (planner COMMAND [OPTIONS]).
	if ((COMP_CWORD <= 1)); then
		COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
		return 0
	fi
	cmd=${COMP_WORDS[1]}

	case $prev in
	--db | -o)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0
		;;
	--output)
		# fit's --output is a token count; elsewhere it is a file.
		[[ $cmd == fit ]] && return 0
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0
		;;
	--gpu)
		_planner_complete_names gpus
		return 0
		;;
	--model)
		_planner_complete_names models
		return 0
		;;
	--format)
		case $cmd in
		schedule) COMPREPLY=($(compgen -W "table json csv ics slurm k8s skypilot dstack" -- "$cur")) ;;
		probe | providers | fleet) COMPREPLY=($(compgen -W "table json" -- "$cur")) ;;
		refresh) COMPREPLY=($(compgen -W "json" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "table json csv" -- "$cur")) ;;
		esac
		return 0
		;;
	--task)
		if [[ $cmd == init ]]; then
			COMPREPLY=($(compgen -W "chat documents coding finetune" -- "$cur"))
			return 0
		fi
		COMPREPLY=($(compgen -W "inference finetune-lora finetune-qlora finetune-full" -- "$cur"))
		return 0
		;;
	--precision)
		COMPREPLY=($(compgen -W "fp32 bf16 fp16 fp8 int8 q8_0 q6_k q5_k_m q5_k_s q5_1 q5_0 q4_k_m q4_k_s q4_1 q4_0 q3_k_l q3_k_m q3_k_s q2_k q2_k_s q8_1 q8_k iq4_nl iq4_xs iq3_m iq3_s iq3_xs iq3_xxs iq2_m iq2_s iq2_xs iq2_xxs iq1_m iq1_s tq2_0 tq1_0 int4 awq gptq gptq-int8 nf4 nvfp4 mxfp4" -- "$cur"))
		return 0
		;;
	--engine)
		COMPREPLY=($(compgen -W "vllm sglang tensorrt-llm llama.cpp hf unsloth torchtune megatron" -- "$cur"))
		return 0
		;;
	--kv-cache)
		COMPREPLY=($(compgen -W "bf16 fp8" -- "$cur"))
		return 0
		;;
	--lora-targets)
		COMPREPLY=($(compgen -W "all-linear attention" -- "$cur"))
		return 0
		;;
	--optimizer)
		COMPREPLY=($(compgen -W "adamw adamw-bf16 adamw-8bit paged-adamw-8bit" -- "$cur"))
		return 0
		;;
	--checkpointing)
		COMPREPLY=($(compgen -W "on off selective" -- "$cur"))
		return 0
		;;
	--kind)
		COMPREPLY=($(compgen -W "gpu unified cpu" -- "$cur"))
		return 0
		;;
	--offload)
		COMPREPLY=($(compgen -W "auto" -- "$cur"))
		return 0
		;;
	--measured)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0
		;;
	--provider)
		# refresh also takes its last step, the ECB's exchange rates, alone.
		local providers="lambda runpod vast azure aws gcp scaleway digitalocean verda hyperstack shadeform fluidstack seeweb ovhcloud vultr oci cudo tensordock jarvislabs cloudrift hotaisle primeintellect hyperbolic linode koyeb openrouter litellm"
		[[ $cmd == refresh ]] && providers+=" ecb"
		COMPREPLY=($(compgen -W "$providers" -- "$cur"))
		return 0
		;;
	--context | --batch | --min-vram | --max-price | --currency | --limit | --month | \
		--if-older-than | --aws-regions | --gpus | --input | --lora-rank | --micro-batch | --set | --buy | \
		--memory-gib | --bandwidth-gbs | --tflops | --threads | --ram-gib | --ram-gbs | \
		--users | --requests-per-user-day | --documents | --tokens-per-document | --country | --owned-count)
		return 0
		;;
	--data)
		COMPREPLY=($(compgen -W "public internal confidential restricted" -- "$cur"))
		return 0
		;;
	--use)
		COMPREPLY=($(compgen -W "business household" -- "$cur"))
		return 0
		;;
	--owned)
		_planner_complete_names gpus
		return 0
		;;
	esac

	local opts
	case $cmd in
	init) opts="--output -o --quiet --yes -y --force --task --users --requests-per-user-day --documents --tokens-per-document --data --eu --office-only --country --use --owned --owned-count" ;;
	compare) opts="--quiet --set --each-alone --show --measured --gpu --gpus --precision --engine --model" ;;
	fit) opts="--precision --context --batch --task --engine --gpu --gpus --input --output --kv-cache --lora-rank --lora-targets --micro-batch --optimizer --checkpointing --memory-gib --bandwidth-gbs --tflops --kind --threads --offload --ram-gib --ram-gbs --measured" ;;
	offers) opts="--gpu --min-vram --max-price --currency --provider --spot --api --model --limit --region --spec" ;;
	refresh) opts="--provider --quiet --if-older-than --aws-regions --timeout" ;;
	providers) opts="" ;;
	models | gpus) opts="" ;;
	schedule) opts="--month --output -o --quiet --allow-unplaced --set --fleet" ;;
	breakeven) opts="--output -o --quiet --set --each-alone" ;;
	report) opts="--output -o --quiet --set --each-alone" ;;
	diff) opts="--quiet --set" ;;
	history) opts="--provider --currency" ;;
	fleet) opts="--month --output -o --quiet --thorough --set --buy" ;;
	probe) opts="" ;;
	*) return 0 ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts $common" -- "$cur"))
		return 0
	fi
	case $cmd in
	fit)
		# MODEL: a reference model's id (or a config.json path).
		((COMP_CWORD == 2)) && _planner_complete_names models
		;;
	history)
		((COMP_CWORD == 2)) && _planner_complete_names gpus
		;;
	compare | schedule | breakeven | report | diff | fleet)
		# The job spec: YAML files and directories to descend into.
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -X '!*.yaml' -- "$cur") $(compgen -f -X '!*.yml' -- "$cur")
			$(compgen -d -- "$cur"))
		;;
	esac
	return 0
}
complete -F _planner planner
