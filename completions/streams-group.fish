# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_streams_group_global_optspecs
    string join \n bootstrap-server= command-config= timeout= debug o/output= color= v/verbose h/help V/version
end

function __fish_streams_group_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_streams_group_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_streams_group_using_subcommand
    set -l cmd (__fish_streams_group_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c streams-group -n "__fish_streams_group_needs_command" -l bootstrap-server -r
complete -c streams-group -n "__fish_streams_group_needs_command" -l command-config -r -F
complete -c streams-group -n "__fish_streams_group_needs_command" -l timeout -r
complete -c streams-group -n "__fish_streams_group_needs_command" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_needs_command" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_needs_command" -l debug
complete -c streams-group -n "__fish_streams_group_needs_command" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c streams-group -n "__fish_streams_group_needs_command" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "simulate" -d 'Simulate Streams clients against the local coordinator on a virtual clock'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "list" -d 'List the streams groups of a cluster'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "describe" -d 'Describe streams groups: state, members, offsets and lag, topology'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "diff" -d 'Compare two topologies or two assignments'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "check-epoch" -d 'Dry-run a topology epoch bump: would the coordinator accept this topology?'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "lag" -d 'Warm-up and restoration lag per task, against acceptable.recovery.lag'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "topology" -d 'Parse a topology and show its tasks and internal topics'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "reset-offsets" -d 'Reset committed offsets of Empty streams groups (a dry run unless --execute)'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "delete-offsets" -d 'Delete committed offsets of an Empty streams group (a dry run unless --execute)'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "delete" -d 'Delete Empty streams groups and their internal topics (a dry run unless --execute)'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "timeline" -d 'Replay a `describe --watch --record` recording as a timeline of the rebalance'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "history" -d 'What the coordinator decided, read back from __consumer_offsets'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "man" -d 'Print or install the manual pages'
complete -c streams-group -n "__fish_streams_group_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -s n -l members -d 'Number of simulated members (stream threads) of a new group [default: 4]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l threads-per-process -d 'Stream threads per process (members of one process share a process id)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l processes -d 'Number of processes of a new group; members are spread over them' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l topology -d 'Topology: a JSON or Kafka Streams `Topology#describe()` text file, a snapshot, or group:ID (default: the built-in example)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l application-id -d 'Application id, to name the internal topics of a `Topology#describe()` text' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l partitions -d 'Partitions of every source topic whose count is not known otherwise (from --topic-partitions, or from the group)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l topic-partitions -d 'Partition count of one topic (repeatable, or comma-separated); internal topics too, to model existing ones; 0 = the topic is missing' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l scenario -d 'Scenario: a built-in name or a JSON scenario file' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l count -d 'Members (stream threads) added, removed or crashed by the scale-out, scale-in and crash scenarios; scale-in and crash take the last ones and leave at least one [default: 2]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l instances -d 'Instead of --count: instances (processes) the scale-out, scale-in and crash scenarios add, remove or crash; a new instance runs the group\'s threads per process' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l process -d 'The process whose members scale-in removes, crash crashes or rolling-bounce restarts: its id or a unique prefix of it (repeatable; instead of --count and --instances)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l member -d 'A member scale-in removes, crash crashes or rolling-bounce restarts: its id or a unique prefix of it (repeatable; with --process too)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l standby-replicas -d 'streams.num.standby.replicas (default: what the starting group shows, else 0)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l session-timeout -d 'streams.session.timeout.ms (default: the starting group\'s, else the broker\'s, else 45000)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l heartbeat-interval -d 'streams.heartbeat.interval.ms (default: the starting group\'s, else the broker\'s, else 5000)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l initial-rebalance-delay -d 'streams.initial.rebalance.delay.ms (default: the starting group\'s, else the broker\'s, else 3000)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l broker-config -d 'A broker setting, as in its server.properties (repeatable): group.streams.* defaults and bounds, e.g. group.streams.min.heartbeat.interval.ms=100. Default: what the broker reported for the starting group, else Kafka\'s defaults' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l release-delay -d 'How long a client takes to release a revoked task' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l restart-delay -d 'How long a restarting member stays away' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l racks -d 'Spread processes over R racks: rack ids and a `rack` client tag, with rack-aware standby placement (`rack.aware.assignment.tags=rack`)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l seed -d 'Seed for start-up jitter and for the ids samples draw; the same seed gives the same report' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l samples -d 'Run the scenario N times, drawing what no tool can know: the ids Kafka gives joiners (the assignor breaks ties by id), each instance\'s heartbeat phase, when a stopping instance\'s threads leave; report what is certain, what varies and every distinct outcome. 1 runs it once [default: 20 when they are cheap, else as many as keep the run within 3 times one run: 1 + 1 per core]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l max-time -d 'Stop at this virtual time even if the group never settles' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l kafka-version -d 'Kafka release whose group coordinator runs: 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), 4.2.1 (also 4.2.0), 4.1 (4.1.2, also 4.1.1) or kip (the KIP-1071 text, with topology epoch updates). Default: the snapshot\'s or live broker\'s version, else 4.4' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l assignor -d 'Task assignor: `sticky` (the release\'s own StickyTaskAssignor, exactly) or `balanced-sticky` (this tool\'s: stateful and stateless balanced apart, rack-aware standbys). Default: the group\'s (describe v1 reports it), else sticky' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l from-snapshot -d 'Start from a group in a `describe --output json` snapshot (its members, epochs, tasks)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l from-group -d 'Start from a live group (needs --bootstrap-server)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l group -d 'The group to start from when the snapshot has several' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l endpoints -d 'Give every simulated process an interactive-query endpoint (`application.server` PROCESS:8080): the report shows which partitions each endpoint serves'
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l static -d 'Give members instance ids (static membership)'
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l trace -d 'Print the heartbeat-by-heartbeat transcript'
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c streams-group -n "__fish_streams_group_using_subcommand simulate" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand list" -l state -d 'Only groups in these states (comma-separated): Empty, NotReady, Assigning, Reconciling, Stable, Dead' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand list" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand list" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand list" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand list" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand list" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand list" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand list" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand list" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand list" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l watch -d 'Describe again every INTERVAL (seconds, or 500ms, 2s, 1m; 2 s when not given) and show what changed; Ctrl-C stops' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l samples -l count -d 'With --watch: stop after N samples' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l for -d 'With --watch: stop after DURATION (seconds, or 90s, 5m, 1h)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l record -d 'With --watch: append every sample to FILE as one JSON line (`timeline FILE` replays it)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -s g -l group -d 'Group to describe (repeatable)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l state -d 'Show group state, coordinator and epochs'
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l members -d 'Show members with their tasks (and, with --verbose, targets and task lag)'
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l offsets -d 'Show committed offsets, log-end offsets and lag per input partition (default)'
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l topology -d 'Show the subtopologies with their source, repartition and changelog topics'
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -l all-groups -d 'Describe every streams group of the cluster'
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand describe" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -f -a "topology" -d 'Compare two topologies: subtopologies, topics, copartition groups, and rollout hazards'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -f -a "assignment" -d 'Compare assignments: current vs target, two snapshots, or a snapshot vs a simulation'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and not __fish_seen_subcommand_from topology assignment help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -l application-id -d 'Application id (needed for Topology#describe() text)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -l group -d 'The group to take from a snapshot with several groups' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -l exit-code -d 'Exit with status 1 when the topologies differ'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from topology" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l group -d 'The group: live with no snapshot file, or the group to take from the snapshots' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l members -d 'Members in the simulation (default: the snapshot\'s member count)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l assignor -d 'With --simulate: the task assignor (sticky or balanced-sticky). Default: the group\'s, else sticky' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l partitions -d 'Partitions of every source topic whose count is not known otherwise (from --topic-partitions, or from the group)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l topic-partitions -d 'Partition count of one topic (repeatable, or comma-separated); internal topics too, to model existing ones; 0 = the topic is missing' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l kafka-version -d 'With --simulate: the Kafka release whose coordinator simulates: 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), 4.2.1 (also 4.2.0), 4.1 (4.1.2, also 4.1.1) or kip. Default: the version the snapshot records, else 4.4' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l simulate -d 'Compare the snapshot\'s current assignment with a simulated one (same topology)'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l exit-code -d 'Exit with status 1 when the assignments differ'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from assignment" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from help" -f -a "topology" -d 'Compare two topologies: subtopologies, topics, copartition groups, and rollout hazards'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from help" -f -a "assignment" -d 'Compare assignments: current vs target, two snapshots, or a snapshot vs a simulation'
complete -c streams-group -n "__fish_streams_group_using_subcommand diff; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l topology -d 'The new topology: FILE (JSON, describe text, snapshot) or group:ID' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l topology-epoch -d 'The topology epoch the new members will send' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l group -d 'The group: live (with --bootstrap-server), or the one to pick in --snapshot' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l snapshot -d 'Read the group from a `describe --output json` snapshot instead of the cluster' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l application-id -d 'Application id: names internal topics of describe text and picks the group in a snapshot' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l rules -d 'Alias: `kip` for --kafka-version kip; `broker` for the group\'s release (the default)' -r -f -a "kip\t'KIP-1071\'s topology epoch rules'
broker\t'What shipped Apache Kafka brokers (4.1 to 4.4) do'"
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l partitions -d 'Partitions of every source topic whose count is not known otherwise (from --topic-partitions, or from the group)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l topic-partitions -d 'Partition count of one topic (repeatable, or comma-separated); internal topics too, to model existing ones; 0 = the topic is missing' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l kafka-version -d 'The Kafka release whose coordinator decides: 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), 4.2.1 (also 4.2.0), 4.1 (4.1.2, also 4.1.1) or kip (KIP-1071\'s epoch rules). Default: the snapshot\'s or live broker\'s version, else 4.4' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c streams-group -n "__fish_streams_group_using_subcommand check-epoch" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -l group -d 'The group: live (with --bootstrap-server), or the one to pick in --snapshot' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -l snapshot -d 'Read the group from a `describe --output json` snapshot instead of the cluster' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -l acceptable-recovery-lag -d 'The lag at which a task counts as caught up (streams.acceptable.recovery.lag). Default: the group\'s, when its broker reports it, else 10000' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -l exit-code -d 'Exit 1 when any task is lagging beyond the acceptable lag, 6 when no member reports task offsets at all (nothing could be checked: the line on stderr says why)'
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand lag" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -l application-id -d 'Application id (needed for describe text: internal topic names start with it)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -l group -d 'The group to take from a snapshot with several' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -l partitions -d 'Partitions of every source topic whose count is not known otherwise (from --topic-partitions, or from the group)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -l topic-partitions -d 'Partition count of one topic (repeatable, or comma-separated); internal topics too, to model existing ones; 0 = the topic is missing' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -a "show" -d 'Draw the topology as text, Graphviz DOT or a Mermaid flowchart'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and not __fish_seen_subcommand_from show help" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -l format -d 'The picture: text for a terminal, dot for Graphviz, mermaid for Markdown' -r -f -a "text\t''
dot\t''
mermaid\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -l application-id -d 'Application id (needed for describe text: internal topic names start with it)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -l group -d 'The group to take from a snapshot with several' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -l partitions -d 'Partitions of every source topic whose count is not known otherwise (no default: unknown counts are left out of the picture)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -l topic-partitions -d 'Partitions of given topics: TOPIC=N, comma-separated or repeated' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from help" -f -a "show" -d 'Draw the topology as text, Graphviz DOT or a Mermaid flowchart'
complete -c streams-group -n "__fish_streams_group_using_subcommand topology; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l input-topic -d 'A topic, all its partitions or the ones named: TOPIC or TOPIC:0,1,2 (repeatable)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l to-offset -d 'This offset, clamped to the log' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l shift-by -d 'The committed offset plus N (negative: back), clamped to the log' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l to-datetime -d 'The first offset at or after this time: YYYY-MM-DDTHH:mm:SS.sss, optional Z, +hh:mm or +hh (UTC without a zone)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l by-duration -d 'The first offset at or after now minus this ISO-8601 duration (PnDTnHnMnS, e.g. PT1H)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l from-file -d 'The offsets of a CSV plan (as --export writes it); the scope is the file\'s' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -s g -l group -d 'Group to reset (repeatable)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l all-groups -d 'Every streams group of the cluster'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l all-input-topics -d 'The group\'s input topics: the committed partitions of its topology\'s source topics (repartition topics are left out, as kafka-streams-groups.sh leaves them out)'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l to-earliest -d 'The log start offset'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l to-latest -d 'The log end offset'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l to-current -d 'The committed offset (the log end where nothing is committed)'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l export -d 'Print the plan as CSV (the --from-file format) instead of a table'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l dry-run -d 'Show what would change and write nothing (the default)'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l execute -d 'Write the changes (without it nothing is written)'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand reset-offsets" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -s g -l group -d 'The group (one)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -l input-topic -d 'A topic, all its partitions or the ones named: TOPIC or TOPIC:0,1,2 (repeatable)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -l all-input-topics -d 'The group\'s input topics: the committed partitions of its topology\'s source topics (repartition topics are left out, as kafka-streams-groups.sh leaves them out)'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -l dry-run -d 'Show what would change and write nothing (the default)'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -l execute -d 'Write the changes (without it nothing is written)'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete-offsets" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -s g -l group -d 'Group to delete (repeatable)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -l delete-internal-topics -d 'Also delete the groups\' internal (repartition and changelog) topics'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -l dry-run -d 'Show what would change and write nothing (the default)'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -l execute -d 'Write the changes (without it nothing is written)'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand delete" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand timeline" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand timeline" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand timeline" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand timeline" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand timeline" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -s g -l group -d 'The streams group' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -l since -d 'Tell only what happened at or after this time: an instant (2026-12-03T09:00:00Z, as reset-offsets --to-datetime takes) or a time ago (90s, 30m, 2h, 7d)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -l until -d 'Tell only what happened at or before this time (as --since)' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -l at -d 'Write the group as it was at this time (as --since), in the snapshot format of `describe --output json`: diff assignment, simulate --from-snapshot and check-epoch read it' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -l bootstrap-server -d 'Kafka bootstrap server(s), host:port[,host:port...] [env: STREAMS_GROUP_BOOTSTRAP_SERVER]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -l command-config -d 'Kafka client properties file (security.protocol, sasl.*, ssl.*)' -r -F
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -l timeout -d 'Upper bound for every network wait, in milliseconds [default: 30000]' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -l kafka-version -d 'Release whose coordinator --verify runs: 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), 4.2.1 (also 4.2.0) or 4.1 (4.1.2, also 4.1.1). Default: the broker\'s, from StreamsGroupDescribe\'s version and the fields its records carry' -r
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -l verify -d 'Recompute every target assignment the broker wrote with this build\'s coordinator of the broker\'s release and compare: exit 1 on a difference the records prove'
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -l debug -d 'Write each request to the cluster on stderr as it goes (`debug:` lines): which broker, which API, when, and how long its answer took or that none came; never their contents'
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand history" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand completions" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand completions" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand completions" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand completions" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand completions" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand man" -l dir -d 'Write every page into DIR (created if missing), one file per subcommand, and list them' -r -f -a "(__fish_complete_directories)"
complete -c streams-group -n "__fish_streams_group_using_subcommand man" -s o -l output -d 'Output format' -r -f -a "table\t''
json\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand man" -l color -d 'When to use colours (NO_COLOR in the environment turns off `auto`)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c streams-group -n "__fish_streams_group_using_subcommand man" -s v -l verbose -d 'More detail'
complete -c streams-group -n "__fish_streams_group_using_subcommand man" -s h -l help -d 'Print help'
complete -c streams-group -n "__fish_streams_group_using_subcommand man" -s V -l version -d 'Print version'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "simulate" -d 'Simulate Streams clients against the local coordinator on a virtual clock'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "list" -d 'List the streams groups of a cluster'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "describe" -d 'Describe streams groups: state, members, offsets and lag, topology'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "diff" -d 'Compare two topologies or two assignments'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "check-epoch" -d 'Dry-run a topology epoch bump: would the coordinator accept this topology?'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "lag" -d 'Warm-up and restoration lag per task, against acceptable.recovery.lag'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "topology" -d 'Parse a topology and show its tasks and internal topics'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "reset-offsets" -d 'Reset committed offsets of Empty streams groups (a dry run unless --execute)'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "delete-offsets" -d 'Delete committed offsets of an Empty streams group (a dry run unless --execute)'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "delete" -d 'Delete Empty streams groups and their internal topics (a dry run unless --execute)'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "timeline" -d 'Replay a `describe --watch --record` recording as a timeline of the rebalance'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "history" -d 'What the coordinator decided, read back from __consumer_offsets'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "man" -d 'Print or install the manual pages'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and not __fish_seen_subcommand_from simulate list describe diff check-epoch lag topology reset-offsets delete-offsets delete timeline history completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and __fish_seen_subcommand_from diff" -f -a "topology" -d 'Compare two topologies: subtopologies, topics, copartition groups, and rollout hazards'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and __fish_seen_subcommand_from diff" -f -a "assignment" -d 'Compare assignments: current vs target, two snapshots, or a snapshot vs a simulation'
complete -c streams-group -n "__fish_streams_group_using_subcommand help; and __fish_seen_subcommand_from topology" -f -a "show" -d 'Draw the topology as text, Graphviz DOT or a Mermaid flowchart'
