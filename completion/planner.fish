# fish completion for planner(1): commands, each command's options, the
# values of options that take a fixed set (formats, tasks, precisions,
# engines, providers), and model and GPU names from `planner models` and
# `planner gpus` at completion time. Installed as
# share/fish/vendor_completions.d/planner.fish.

# The first column of `planner models|gpus --format csv`.
function __planner_names
    set -l bin (commandline -opc)[1]
    command -q $bin; or set bin planner
    $bin $argv[1] --format csv 2>/dev/null | sed -e 1d -e 's/,.*//'
end

set -l commands init compare schedule breakeven report diff fit offers refresh providers models gpus history probe fleet
set -l providers lambda runpod vast azure aws gcp scaleway digitalocean verda hyperstack shadeform fluidstack seeweb ovhcloud vultr oci cudo tensordock jarvislabs cloudrift hotaisle primeintellect hyperbolic linode koyeb openrouter litellm

complete -c planner -f
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a init -d 'write a first job spec'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a compare -d 'cost of every job on each route'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a schedule -d 'the month as a schedule'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a fleet -d 'what to buy for all the jobs together'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a breakeven -d 'the break-even report as CSV'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a report -d 'an HTML report with charts'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a diff -d 'what a spec change does to each job'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a fit -d 'memory a model needs, GPUs it fits'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a offers -d 'the rentable GPU catalogue'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a refresh -d 'fetch live prices'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a providers -d 'each price feed'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a models -d 'the models planner knows'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a gpus -d 'the GPUs planner knows'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a history -d 'a GPU price over refreshes'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -a probe -d 'this machine as an owned: block'
complete -c planner -n "not __fish_seen_subcommand_from $commands" -l version -d 'version'

# Every command.
complete -c planner -l db -r -F -d 'price database'
complete -c planner -l help -d "the command's help"
complete -c planner -l verbose -d 'say more'

# --format, by command.
complete -c planner -n "__fish_seen_subcommand_from schedule" -l format -x -a 'table json csv ics slurm k8s skypilot dstack'
complete -c planner -n "__fish_seen_subcommand_from compare breakeven report fit offers models gpus history" -l format -x -a 'table json csv'
complete -c planner -n "__fish_seen_subcommand_from diff" -l format -x -a 'table json'
complete -c planner -n "__fish_seen_subcommand_from providers probe" -l format -x -a 'table json'
complete -c planner -n "__fish_seen_subcommand_from refresh" -l format -x -a 'json'

# The job spec and output files.
complete -c planner -n "__fish_seen_subcommand_from compare schedule breakeven report diff fleet" -F
complete -c planner -n "__fish_seen_subcommand_from schedule breakeven report fleet" -s o -l output -r -F -d 'write to'
complete -c planner -n "__fish_seen_subcommand_from compare schedule breakeven report diff refresh fleet" -l quiet -d 'no notes'
complete -c planner -n "__fish_seen_subcommand_from compare schedule breakeven report diff fleet" -l set -x -d 'what if: KEY=VALUE'
complete -c planner -n "__fish_seen_subcommand_from compare breakeven report" -l each-alone -d 'price each job alone'
complete -c planner -n "__fish_seen_subcommand_from schedule fleet" -l month -x -d 'YYYY-MM'
complete -c planner -n "__fish_seen_subcommand_from schedule" -l fleet -d 'on the GPUs planner fleet proposes'
complete -c planner -n "__fish_seen_subcommand_from fleet" -l format -x -a 'table json'
complete -c planner -n "__fish_seen_subcommand_from fleet" -l thorough -d 'schedule every candidate in full'
complete -c planner -n "__fish_seen_subcommand_from fleet" -l buy -x -d 'price a given purchase: COUNTx GPU'
complete -c planner -n "__fish_seen_subcommand_from schedule" -l allow-unplaced -d 'exit 0 when hours cannot be placed'

# fit
complete -c planner -n "__fish_seen_subcommand_from fit; and test (count (commandline -opc)) -eq 2" -x -a '(__planner_names models)'
complete -c planner -n "__fish_seen_subcommand_from fit" -l precision -x -a 'fp32 bf16 fp16 fp8 int8 q8_0 q6_k q5_k_m q5_k_s q5_1 q5_0 q4_k_m q4_k_s q4_1 q4_0 q3_k_l q3_k_m q3_k_s q2_k q2_k_s q8_1 q8_k iq4_nl iq4_xs iq3_m iq3_s iq3_xs iq3_xxs iq2_m iq2_s iq2_xs iq2_xxs iq1_m iq1_s tq2_0 tq1_0 int4 awq gptq gptq-int8 nf4 nvfp4 mxfp4'
complete -c planner -n "__fish_seen_subcommand_from fit" -l task -x -a 'inference finetune-lora finetune-qlora finetune-full'
complete -c planner -n "__fish_seen_subcommand_from fit" -l engine -x -a 'vllm sglang tensorrt-llm llama.cpp hf unsloth torchtune megatron'
complete -c planner -n "__fish_seen_subcommand_from fit" -l kv-cache -x -a 'bf16 fp8'
complete -c planner -n "__fish_seen_subcommand_from fit" -l lora-targets -x -a 'all-linear attention'
complete -c planner -n "__fish_seen_subcommand_from fit" -l optimizer -x -a 'adamw adamw-bf16 adamw-8bit paged-adamw-8bit'
complete -c planner -n "__fish_seen_subcommand_from fit" -l checkpointing -x -a 'on off selective'
complete -c planner -n "__fish_seen_subcommand_from fit" -l context -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l batch -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l gpus -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l input -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l output -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l lora-rank -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l kind -x -a 'gpu unified cpu'
complete -c planner -n "__fish_seen_subcommand_from fit" -l memory-gib -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l bandwidth-gbs -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l tflops -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l threads -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l offload -x -a 'auto'
complete -c planner -n "__fish_seen_subcommand_from fit" -l ram-gib -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l ram-gbs -x
complete -c planner -n "__fish_seen_subcommand_from fit" -l micro-batch -x
complete -c planner -n "__fish_seen_subcommand_from fit compare" -l measured -r -F -d 'a benchmark result you ran'
complete -c planner -n "__fish_seen_subcommand_from compare" -l show -x -a co2 -d 'more figures: co2'
complete -c planner -n "__fish_seen_subcommand_from compare" -l gpus -x -d 'GPUs --measured ran on'
complete -c planner -n "__fish_seen_subcommand_from compare" -l precision -x -a 'fp32 bf16 fp16 fp8 int8 q8_0 q6_k q5_k_m q4_k_m q4_0 int4'
complete -c planner -n "__fish_seen_subcommand_from compare" -l engine -x -a 'vllm sglang tensorrt-llm llama.cpp hf unsloth torchtune megatron'
complete -c planner -n "__fish_seen_subcommand_from compare" -l model -x -a '(__planner_names models)'
complete -c planner -n "__fish_seen_subcommand_from fit offers compare" -l gpu -x -a '(__planner_names gpus)'

# offers
complete -c planner -n "__fish_seen_subcommand_from offers" -l model -x -a '(__planner_names models)'
complete -c planner -n "__fish_seen_subcommand_from offers" -l min-vram -x
complete -c planner -n "__fish_seen_subcommand_from offers" -l max-price -x
complete -c planner -n "__fish_seen_subcommand_from offers history" -l currency -x -a 'USD EUR GBP CHF'
complete -c planner -n "__fish_seen_subcommand_from offers" -l limit -x
complete -c planner -n "__fish_seen_subcommand_from offers" -l spec -r -F -d 'job spec, for its currency'
complete -c planner -n "__fish_seen_subcommand_from offers" -l spot
complete -c planner -n "__fish_seen_subcommand_from offers" -l api
complete -c planner -n "__fish_seen_subcommand_from offers" -l region -x -d 'eu, us, a country or a provider region'
complete -c planner -n "__fish_seen_subcommand_from offers history" -l provider -x -a "$providers"
# refresh also takes its last step, the ECB's exchange rates, alone.
complete -c planner -n "__fish_seen_subcommand_from refresh" -l provider -x -a "$providers ecb"

# refresh
complete -c planner -n "__fish_seen_subcommand_from refresh" -l if-older-than -x
complete -c planner -n "__fish_seen_subcommand_from refresh" -l aws-regions -x
complete -c planner -n "__fish_seen_subcommand_from refresh" -l timeout -x

# history GPU
complete -c planner -n "__fish_seen_subcommand_from history; and test (count (commandline -opc)) -eq 2" -x -a '(__planner_names gpus)'

# init: every question a flag.
complete -c planner -n "__fish_seen_subcommand_from init" -s o -l output -r -F -d 'write to'
complete -c planner -n "__fish_seen_subcommand_from init" -l quiet -d 'no notes'
complete -c planner -n "__fish_seen_subcommand_from init" -s y -l yes -d 'defaults for every question not given'
complete -c planner -n "__fish_seen_subcommand_from init" -l force -d 'overwrite the file'
complete -c planner -n "__fish_seen_subcommand_from init" -l task -x -a 'chat documents coding finetune' -d 'what the model is for'
complete -c planner -n "__fish_seen_subcommand_from init" -l users -x -d 'people who use it'
complete -c planner -n "__fish_seen_subcommand_from init" -l requests-per-user-day -x -d 'questions each asks a day'
complete -c planner -n "__fish_seen_subcommand_from init" -l documents -x -d 'documents a month'
complete -c planner -n "__fish_seen_subcommand_from init" -l tokens-per-document -x -d 'tokens of one document'
complete -c planner -n "__fish_seen_subcommand_from init" -l data -x -a 'public internal confidential restricted' -d 'how sensitive the data is'
complete -c planner -n "__fish_seen_subcommand_from init" -l eu -d 'the data stays in the EU'
complete -c planner -n "__fish_seen_subcommand_from init" -l office-only -d 'the data stays in the office'
complete -c planner -n "__fish_seen_subcommand_from init" -l country -x -d 'your country code'
complete -c planner -n "__fish_seen_subcommand_from init" -l use -x -a 'business household' -d 'whose electricity price'
complete -c planner -n "__fish_seen_subcommand_from init" -l owned -x -a '(__planner_names gpus)' -d 'a GPU you already have'
complete -c planner -n "__fish_seen_subcommand_from init" -l owned-count -x -d 'how many of them'
