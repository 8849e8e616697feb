# bash completion for planner(1): commands, each command's options, and
# the values of options that take a fixed set (formats, tasks, precisions,
# providers). Installed as share/bash-completion/completions/planner.

_planner()
{
	local cur prev cmd
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	local commands="compare fit offers refresh providers models gpus schedule breakeven report history probe"
	local common="--db --format --help --verbose"

	# The command is always the first word (planner COMMAND [OPTIONS]).
	if ((COMP_CWORD <= 1)); then
		COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
		return 0
	fi
	cmd=${COMP_WORDS[1]}

	case $prev in
	--db | -o | --output)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0
		;;
	--format)
		case $cmd in
		schedule) COMPREPLY=($(compgen -W "table json csv ics slurm k8s" -- "$cur")) ;;
		probe | providers) COMPREPLY=($(compgen -W "table json" -- "$cur")) ;;
		refresh) COMPREPLY=($(compgen -W "json" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "table json csv" -- "$cur")) ;;
		esac
		return 0
		;;
	--task)
		COMPREPLY=($(compgen -W "inference finetune-lora finetune-qlora finetune-full" -- "$cur"))
		return 0
		;;
	--precision)
		COMPREPLY=($(compgen -W "fp32 bf16 fp16 fp8 int8 q8_0 q6_k q5_k_m q4_k_m q4_0 int4" -- "$cur"))
		return 0
		;;
	--engine)
		COMPREPLY=($(compgen -W "vllm sglang tensorrt-llm llama.cpp hf unsloth torchtune" -- "$cur"))
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
	--provider)
		COMPREPLY=($(compgen -W "lambda runpod vast azure aws gcp openrouter litellm" -- "$cur"))
		return 0
		;;
	--context | --batch | --min-vram | --max-price | --limit | --month | --model | --gpu | \
		--if-older-than | --aws-regions | --gpus | --input | --output | --lora-rank | --micro-batch)
		return 0
		;;
	esac

	local opts
	case $cmd in
	compare) opts="--quiet" ;;
	fit) opts="--precision --context --batch --task --engine --gpu --gpus --input --output --kv-cache --lora-rank --lora-targets --micro-batch --optimizer" ;;
	offers) opts="--gpu --min-vram --max-price --provider --spot --api --model --limit" ;;
	refresh) opts="--provider --quiet --if-older-than --aws-regions --timeout" ;;
	providers) opts="" ;;
	models | gpus) opts="" ;;
	schedule) opts="--month --output -o --quiet --allow-unplaced" ;;
	breakeven) opts="--output -o --quiet" ;;
	report) opts="--output -o --quiet" ;;
	history) opts="--provider" ;;
	probe) opts="" ;;
	*) return 0 ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts $common" -- "$cur"))
		return 0
	fi
	case $cmd in
	compare | schedule | breakeven | report)
		# The job spec: YAML files and directories to descend into.
		COMPREPLY=($(compgen -f -X '!*.yaml' -- "$cur") $(compgen -f -X '!*.yml' -- "$cur")
			$(compgen -d -- "$cur"))
		;;
	esac
	return 0
}
complete -o filenames -F _planner planner
