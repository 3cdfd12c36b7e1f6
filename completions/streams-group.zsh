#compdef streams-group

autoload -U is-at-least

_streams-group() {
    typeset -A opt_args
    typeset -a _arguments_options
    local ret=1

    if is-at-least 5.2; then
        _arguments_options=(-s -S -C)
    else
        _arguments_options=(-s -C)
    fi

    local context curcontext="$curcontext" state line
    _arguments "${_arguments_options[@]}" : \
'--bootstrap-server=[]:HOST:PORT:_default' \
'--command-config=[]:FILE:_files' \
'--timeout=[]:MS:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--debug[]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help (see more with '\''--help'\'')]' \
'--help[Print help (see more with '\''--help'\'')]' \
'-V[Print version]' \
'--version[Print version]' \
":: :_streams-group_commands" \
"*::: :->streams-group" \
&& ret=0
    case $state in
    (streams-group)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:streams-group-command-$line[1]:"
        case $line[1] in
            (simulate)
_arguments "${_arguments_options[@]}" : \
'(--from-snapshot --from-group)-n+[Number of simulated members (stream threads) of a new group \[default\: 4\]]:N:_default' \
'(--from-snapshot --from-group)--members=[Number of simulated members (stream threads) of a new group \[default\: 4\]]:N:_default' \
'(--processes)--threads-per-process=[Stream threads per process (members of one process share a process id)]:T:_default' \
'(--from-snapshot --from-group)--processes=[Number of processes of a new group; members are spread over them]:P:_default' \
'--topology=[Topology\: a JSON or Kafka Streams \`Topology#describe()\` text file, a snapshot, or group\:ID (default\: the built-in example)]:FILE:_files' \
'--application-id=[Application id, to name the internal topics of a \`Topology#describe()\` text]:ID:_default' \
'--partitions=[Partitions of every source topic whose count is not known otherwise (from --topic-partitions, or from the group)]:N:_default' \
'*--topic-partitions=[Partition count of one topic (repeatable, or comma-separated); internal topics too, to model existing ones; 0 = the topic is missing]:TOPIC=N:_default' \
'--scenario=[Scenario\: a built-in name or a JSON scenario file]:NAME|FILE:_default' \
'--count=[Members (stream threads) added, removed or crashed by the scale-out, scale-in and crash scenarios; scale-in and crash take the last ones and leave at least one \[default\: 2\]]:K:_default' \
'(--count)--instances=[Instead of --count\: instances (processes) the scale-out, scale-in and crash scenarios add, remove or crash; a new instance runs the group'\''s threads per process]:N:_default' \
'(--count --instances)*--process=[The process whose members scale-in removes, crash crashes or rolling-bounce restarts\: its id or a unique prefix of it (repeatable; instead of --count and --instances)]:ID:_default' \
'(--count --instances)*--member=[A member scale-in removes, crash crashes or rolling-bounce restarts\: its id or a unique prefix of it (repeatable; with --process too)]:ID:_default' \
'--standby-replicas=[streams.num.standby.replicas (default\: what the starting group shows, else 0)]:N:_default' \
'--session-timeout=[streams.session.timeout.ms (default\: the starting group'\''s, else the broker'\''s, else 45000)]:MS:_default' \
'--heartbeat-interval=[streams.heartbeat.interval.ms (default\: the starting group'\''s, else the broker'\''s, else 5000)]:MS:_default' \
'--initial-rebalance-delay=[streams.initial.rebalance.delay.ms (default\: the starting group'\''s, else the broker'\''s, else 3000)]:MS:_default' \
'*--broker-config=[A broker setting, as in its server.properties (repeatable)\: group.streams.* defaults and bounds, e.g. group.streams.min.heartbeat.interval.ms=100. Default\: what the broker reported for the starting group, else Kafka'\''s defaults]:KEY=VALUE:_default' \
'--release-delay=[How long a client takes to release a revoked task]:MS:_default' \
'--restart-delay=[How long a restarting member stays away]:MS:_default' \
'--racks=[Spread processes over R racks\: rack ids and a \`rack\` client tag, with rack-aware standby placement (\`rack.aware.assignment.tags=rack\`)]:R:_default' \
'--seed=[Seed for start-up jitter and for the ids samples draw; the same seed gives the same report]:SEED:_default' \
'--samples=[Run the scenario N times, drawing what no tool can know\: the ids Kafka gives joiners (the assignor breaks ties by id), each instance'\''s heartbeat phase, when a stopping instance'\''s threads leave; report what is certain, what varies and every distinct outcome. 1 runs it once \[default\: 20 when they are cheap, else as many as keep the run within 3 times one run\: 1 + 1 per core\]]:N:_default' \
'--max-time=[Stop at this virtual time even if the group never settles]:MS:_default' \
'--kafka-version=[Kafka release whose group coordinator runs\: 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), 4.2.1 (also 4.2.0), 4.1 (4.1.2, also 4.1.1) or kip (the KIP-1071 text, with topology epoch updates). Default\: the snapshot'\''s or live broker'\''s version, else 4.4]:VERSION:_default' \
'--assignor=[Task assignor\: \`sticky\` (the release'\''s own StickyTaskAssignor, exactly) or \`balanced-sticky\` (this tool'\''s\: stateful and stateless balanced apart, rack-aware standbys). Default\: the group'\''s (describe v1 reports it), else sticky]:NAME:_default' \
'(--topology --from-group)--from-snapshot=[Start from a group in a \`describe --output json\` snapshot (its members, epochs, tasks)]:FILE:_files' \
'(--topology)--from-group=[Start from a live group (needs --bootstrap-server)]:GROUP:_default' \
'--group=[The group to start from when the snapshot has several]:GROUP:_default' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--endpoints[Give every simulated process an interactive-query endpoint (\`application.server\` PROCESS\:8080)\: the report shows which partitions each endpoint serves]' \
'--static[Give members instance ids (static membership)]' \
'--trace[Print the heartbeat-by-heartbeat transcript]' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help (see more with '\''--help'\'')]' \
'--help[Print help (see more with '\''--help'\'')]' \
'-V[Print version]' \
'--version[Print version]' \
&& ret=0
;;
(list)
_arguments "${_arguments_options[@]}" : \
'*--state=[Only groups in these states (comma-separated)\: Empty, NotReady, Assigning, Reconciling, Stable, Dead]:STATE:_default' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
&& ret=0
;;
(describe)
_arguments "${_arguments_options[@]}" : \
'--watch=[Describe again every INTERVAL (seconds, or 500ms, 2s, 1m; 2 s when not given) and show what changed; Ctrl-C stops]::INTERVAL:_default' \
'--samples=[With --watch\: stop after N samples]:N:_default' \
'--count=[With --watch\: stop after N samples]:N:_default' \
'--for=[With --watch\: stop after DURATION (seconds, or 90s, 5m, 1h)]:DURATION:_default' \
'--record=[With --watch\: append every sample to FILE as one JSON line (\`timeline FILE\` replays it)]:FILE:_files' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'(--all-groups)*-g+[Group to describe (repeatable)]:GROUP:_default' \
'(--all-groups)*--group=[Group to describe (repeatable)]:GROUP:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--state[Show group state, coordinator and epochs]' \
'--members[Show members with their tasks (and, with --verbose, targets and task lag)]' \
'--offsets[Show committed offsets, log-end offsets and lag per input partition (default)]' \
'--topology[Show the subtopologies with their source, repartition and changelog topics]' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'--all-groups[Describe every streams group of the cluster]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
&& ret=0
;;
(diff)
_arguments "${_arguments_options[@]}" : \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
":: :_streams-group__subcmd__diff_commands" \
"*::: :->diff" \
&& ret=0

    case $state in
    (diff)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:streams-group-diff-command-$line[1]:"
        case $line[1] in
            (topology)
_arguments "${_arguments_options[@]}" : \
'--application-id=[Application id (needed for Topology#describe() text)]:ID:_default' \
'--group=[The group to take from a snapshot with several groups]:GROUP:_default' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--exit-code[Exit with status 1 when the topologies differ]' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
':old -- The old topology\: FILE (JSON, describe text, snapshot) or group\:ID:_files' \
':new -- The new topology\: FILE (JSON, describe text, snapshot) or group\:ID:_files' \
&& ret=0
;;
(assignment)
_arguments "${_arguments_options[@]}" : \
'--group=[The group\: live with no snapshot file, or the group to take from the snapshots]:GROUP:_default' \
'--members=[Members in the simulation (default\: the snapshot'\''s member count)]:N:_default' \
'--assignor=[With --simulate\: the task assignor (sticky or balanced-sticky). Default\: the group'\''s, else sticky]:NAME:_default' \
'--partitions=[Partitions of every source topic whose count is not known otherwise (from --topic-partitions, or from the group)]:N:_default' \
'*--topic-partitions=[Partition count of one topic (repeatable, or comma-separated); internal topics too, to model existing ones; 0 = the topic is missing]:TOPIC=N:_default' \
'--kafka-version=[With --simulate\: the Kafka release whose coordinator simulates\: 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), 4.2.1 (also 4.2.0), 4.1 (4.1.2, also 4.1.1) or kip. Default\: the version the snapshot records, else 4.4]:VERSION:_default' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--simulate[Compare the snapshot'\''s current assignment with a simulated one (same topology)]' \
'--exit-code[Exit with status 1 when the assignments differ]' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
'*::snapshots -- Snapshot files or group\:ID\: one (current vs target, or vs --simulate) or two (old vs new):_files' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_streams-group__subcmd__diff__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:streams-group-diff-help-command-$line[1]:"
        case $line[1] in
            (topology)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(assignment)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
;;
(check-epoch)
_arguments "${_arguments_options[@]}" : \
'--topology=[The new topology\: FILE (JSON, describe text, snapshot) or group\:ID]:FILE|group:ID:_files' \
'--topology-epoch=[The topology epoch the new members will send]:E:_default' \
'--group=[The group\: live (with --bootstrap-server), or the one to pick in --snapshot]:GROUP:_default' \
'--snapshot=[Read the group from a \`describe --output json\` snapshot instead of the cluster]:FILE:_files' \
'--application-id=[Application id\: names internal topics of describe text and picks the group in a snapshot]:ID:_default' \
'(--kafka-version)--rules=[Alias\: \`kip\` for --kafka-version kip; \`broker\` for the group'\''s release (the default)]:RULES:((kip\:"KIP-1071'\''s topology epoch rules"
broker\:"What shipped Apache Kafka brokers (4.1 to 4.4) do"))' \
'--partitions=[Partitions of every source topic whose count is not known otherwise (from --topic-partitions, or from the group)]:N:_default' \
'*--topic-partitions=[Partition count of one topic (repeatable, or comma-separated); internal topics too, to model existing ones; 0 = the topic is missing]:TOPIC=N:_default' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'--kafka-version=[The Kafka release whose coordinator decides\: 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), 4.2.1 (also 4.2.0), 4.1 (4.1.2, also 4.1.1) or kip (KIP-1071'\''s epoch rules). Default\: the snapshot'\''s or live broker'\''s version, else 4.4]:VERSION:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help (see more with '\''--help'\'')]' \
'--help[Print help (see more with '\''--help'\'')]' \
'-V[Print version]' \
'--version[Print version]' \
&& ret=0
;;
(lag)
_arguments "${_arguments_options[@]}" : \
'--group=[The group\: live (with --bootstrap-server), or the one to pick in --snapshot]:GROUP:_default' \
'--snapshot=[Read the group from a \`describe --output json\` snapshot instead of the cluster]:FILE:_files' \
'--acceptable-recovery-lag=[The lag at which a task counts as caught up (streams.acceptable.recovery.lag). Default\: the group'\''s, when its broker reports it, else 10000]:N:_default' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--exit-code[Exit 1 when any task is lagging beyond the acceptable lag, 6 when no member reports task offsets at all (nothing could be checked\: the line on stderr says why)]' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
&& ret=0
;;
(topology)
_arguments "${_arguments_options[@]}" : \
'--application-id=[Application id (needed for describe text\: internal topic names start with it)]:ID:_default' \
'--group=[The group to take from a snapshot with several]:GROUP:_default' \
'--partitions=[Partitions of every source topic whose count is not known otherwise (from --topic-partitions, or from the group)]:N:_default' \
'*--topic-partitions=[Partition count of one topic (repeatable, or comma-separated); internal topics too, to model existing ones; 0 = the topic is missing]:TOPIC=N:_default' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help (see more with '\''--help'\'')]' \
'--help[Print help (see more with '\''--help'\'')]' \
'-V[Print version]' \
'--version[Print version]' \
':file -- Topology\: a JSON or Kafka Streams Topology#describe() text file, a snapshot, or group\:ID for a live group'\''s topology:_files' \
":: :_streams-group__subcmd__topology_commands" \
"*::: :->topology" \
&& ret=0

    case $state in
    (topology)
        words=($line[2] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:streams-group-topology-command-$line[2]:"
        case $line[2] in
            (show)
_arguments "${_arguments_options[@]}" : \
'--format=[The picture\: text for a terminal, dot for Graphviz, mermaid for Markdown]:FORMAT:(text dot mermaid)' \
'--application-id=[Application id (needed for describe text\: internal topic names start with it)]:ID:_default' \
'--group=[The group to take from a snapshot with several]:GROUP:_default' \
'--partitions=[Partitions of every source topic whose count is not known otherwise (no default\: unknown counts are left out of the picture)]:N:_default' \
'*--topic-partitions=[Partitions of given topics\: TOPIC=N, comma-separated or repeated]:TOPIC=N:_default' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help (see more with '\''--help'\'')]' \
'--help[Print help (see more with '\''--help'\'')]' \
'-V[Print version]' \
'--version[Print version]' \
':input -- Topology\: a JSON or Kafka Streams Topology#describe() text file, a snapshot, or group\:ID for a live group'\''s topology:_files' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_streams-group__subcmd__topology__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:streams-group-topology-help-command-$line[1]:"
        case $line[1] in
            (show)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
;;
(reset-offsets)
_arguments "${_arguments_options[@]}" : \
'*--input-topic=[A topic, all its partitions or the ones named\: TOPIC or TOPIC\:0,1,2 (repeatable)]:TOPIC[:P,P]:_default' \
'--to-offset=[This offset, clamped to the log]:OFFSET:_default' \
'--shift-by=[The committed offset plus N (negative\: back), clamped to the log]:N:_default' \
'--to-datetime=[The first offset at or after this time\: YYYY-MM-DDTHH\:mm\:SS.sss, optional Z, +hh\:mm or +hh (UTC without a zone)]:DATETIME:_default' \
'--by-duration=[The first offset at or after now minus this ISO-8601 duration (PnDTnHnMnS, e.g. PT1H)]:DURATION:_default' \
'(--all-input-topics --input-topic)--from-file=[The offsets of a CSV plan (as --export writes it); the scope is the file'\''s]:CSV:_files' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'(--all-groups)*-g+[Group to reset (repeatable)]:GROUP:_default' \
'(--all-groups)*--group=[Group to reset (repeatable)]:GROUP:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--all-groups[Every streams group of the cluster]' \
'(--input-topic)--all-input-topics[The group'\''s input topics\: the committed partitions of its topology'\''s source topics (repartition topics are left out, as kafka-streams-groups.sh leaves them out)]' \
'--to-earliest[The log start offset]' \
'--to-latest[The log end offset]' \
'--to-current[The committed offset (the log end where nothing is committed)]' \
'--export[Print the plan as CSV (the --from-file format) instead of a table]' \
'(--execute)--dry-run[Show what would change and write nothing (the default)]' \
'--execute[Write the changes (without it nothing is written)]' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
&& ret=0
;;
(delete-offsets)
_arguments "${_arguments_options[@]}" : \
'-g+[The group (one)]:GROUP:_default' \
'--group=[The group (one)]:GROUP:_default' \
'*--input-topic=[A topic, all its partitions or the ones named\: TOPIC or TOPIC\:0,1,2 (repeatable)]:TOPIC[:P,P]:_default' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'(--input-topic)--all-input-topics[The group'\''s input topics\: the committed partitions of its topology'\''s source topics (repartition topics are left out, as kafka-streams-groups.sh leaves them out)]' \
'(--execute)--dry-run[Show what would change and write nothing (the default)]' \
'--execute[Write the changes (without it nothing is written)]' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
&& ret=0
;;
(delete)
_arguments "${_arguments_options[@]}" : \
'*-g+[Group to delete (repeatable)]:GROUP:_default' \
'*--group=[Group to delete (repeatable)]:GROUP:_default' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'--delete-internal-topics[Also delete the groups'\'' internal (repartition and changelog) topics]' \
'(--execute)--dry-run[Show what would change and write nothing (the default)]' \
'--execute[Write the changes (without it nothing is written)]' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
&& ret=0
;;
(timeline)
_arguments "${_arguments_options[@]}" : \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
':file -- A recording written by `describe --watch --record FILE` (one JSON sample per line):_files' \
&& ret=0
;;
(history)
_arguments "${_arguments_options[@]}" : \
'-g+[The streams group]:GROUP:_default' \
'--group=[The streams group]:GROUP:_default' \
'--since=[Tell only what happened at or after this time\: an instant (2026-12-03T09\:00\:00Z, as reset-offsets --to-datetime takes) or a time ago (90s, 30m, 2h, 7d)]:TIME:_default' \
'--until=[Tell only what happened at or before this time (as --since)]:TIME:_default' \
'(--since --until)--at=[Write the group as it was at this time (as --since), in the snapshot format of \`describe --output json\`\: diff assignment, simulate --from-snapshot and check-epoch read it]:TIME:_default' \
'--bootstrap-server=[Kafka bootstrap server(s), host\:port\[,host\:port...\] \[env\: STREAMS_GROUP_BOOTSTRAP_SERVER\]]:HOST:PORT:_default' \
'--command-config=[Kafka client properties file (security.protocol, sasl.*, ssl.*)]:FILE:_files' \
'--timeout=[Upper bound for every network wait, in milliseconds \[default\: 30000\]]:MS:_default' \
'--kafka-version=[Release whose coordinator --verify runs\: 4.4 (4.4.0), 4.3 (4.3.2), 4.3.1 (also 4.3.0), 4.2 (4.2.2), 4.2.1 (also 4.2.0) or 4.1 (4.1.2, also 4.1.1). Default\: the broker'\''s, from StreamsGroupDescribe'\''s version and the fields its records carry]:VERSION:_default' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'(--since --until --at)--verify[Recompute every target assignment the broker wrote with this build'\''s coordinator of the broker'\''s release and compare\: exit 1 on a difference the records prove]' \
'--debug[Write each request to the cluster on stderr as it goes (\`debug\:\` lines)\: which broker, which API, when, and how long its answer took or that none came; never their contents]' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
&& ret=0
;;
(completions)
_arguments "${_arguments_options[@]}" : \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
':shell -- The shell to generate for:(bash elvish fish powershell zsh)' \
&& ret=0
;;
(man)
_arguments "${_arguments_options[@]}" : \
'()--dir=[Write every page into DIR (created if missing), one file per subcommand, and list them]:DIR:_files -/' \
'-o+[Output format]:OUTPUT:(table json)' \
'--output=[Output format]:OUTPUT:(table json)' \
'--color=[When to use colours (NO_COLOR in the environment turns off \`auto\`)]:COLOR:(auto always never)' \
'-v[More detail]' \
'--verbose[More detail]' \
'-h[Print help]' \
'--help[Print help]' \
'-V[Print version]' \
'--version[Print version]' \
'*::command -- The (sub)command whose page to print, e.g. `topology show`; none\: the main page:_default' \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
":: :_streams-group__subcmd__help_commands" \
"*::: :->help" \
&& ret=0

    case $state in
    (help)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:streams-group-help-command-$line[1]:"
        case $line[1] in
            (simulate)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(list)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(describe)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(diff)
_arguments "${_arguments_options[@]}" : \
":: :_streams-group__subcmd__help__subcmd__diff_commands" \
"*::: :->diff" \
&& ret=0

    case $state in
    (diff)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:streams-group-help-diff-command-$line[1]:"
        case $line[1] in
            (topology)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(assignment)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
(check-epoch)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(lag)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(topology)
_arguments "${_arguments_options[@]}" : \
":: :_streams-group__subcmd__help__subcmd__topology_commands" \
"*::: :->topology" \
&& ret=0

    case $state in
    (topology)
        words=($line[1] "${words[@]}")
        (( CURRENT += 1 ))
        curcontext="${curcontext%:*:*}:streams-group-help-topology-command-$line[1]:"
        case $line[1] in
            (show)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
(reset-offsets)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(delete-offsets)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(delete)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(timeline)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(history)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(completions)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(man)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
(help)
_arguments "${_arguments_options[@]}" : \
&& ret=0
;;
        esac
    ;;
esac
;;
        esac
    ;;
esac
}

(( $+functions[_streams-group_commands] )) ||
_streams-group_commands() {
    local commands; commands=(
'simulate:Simulate Streams clients against the local coordinator on a virtual clock' \
'list:List the streams groups of a cluster' \
'describe:Describe streams groups\: state, members, offsets and lag, topology' \
'diff:Compare two topologies or two assignments' \
'check-epoch:Dry-run a topology epoch bump\: would the coordinator accept this topology?' \
'lag:Warm-up and restoration lag per task, against acceptable.recovery.lag' \
'topology:Parse a topology and show its tasks and internal topics' \
'reset-offsets:Reset committed offsets of Empty streams groups (a dry run unless --execute)' \
'delete-offsets:Delete committed offsets of an Empty streams group (a dry run unless --execute)' \
'delete:Delete Empty streams groups and their internal topics (a dry run unless --execute)' \
'timeline:Replay a \`describe --watch --record\` recording as a timeline of the rebalance' \
'history:What the coordinator decided, read back from __consumer_offsets' \
'completions:Print a shell completion script' \
'man:Print or install the manual pages' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'streams-group commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__check-epoch_commands] )) ||
_streams-group__subcmd__check-epoch_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group check-epoch commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__completions_commands] )) ||
_streams-group__subcmd__completions_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group completions commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__delete_commands] )) ||
_streams-group__subcmd__delete_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group delete commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__delete-offsets_commands] )) ||
_streams-group__subcmd__delete-offsets_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group delete-offsets commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__describe_commands] )) ||
_streams-group__subcmd__describe_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group describe commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__diff_commands] )) ||
_streams-group__subcmd__diff_commands() {
    local commands; commands=(
'topology:Compare two topologies\: subtopologies, topics, copartition groups, and rollout hazards' \
'assignment:Compare assignments\: current vs target, two snapshots, or a snapshot vs a simulation' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'streams-group diff commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__diff__subcmd__assignment_commands] )) ||
_streams-group__subcmd__diff__subcmd__assignment_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group diff assignment commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__diff__subcmd__help_commands] )) ||
_streams-group__subcmd__diff__subcmd__help_commands() {
    local commands; commands=(
'topology:Compare two topologies\: subtopologies, topics, copartition groups, and rollout hazards' \
'assignment:Compare assignments\: current vs target, two snapshots, or a snapshot vs a simulation' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'streams-group diff help commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__diff__subcmd__help__subcmd__assignment_commands] )) ||
_streams-group__subcmd__diff__subcmd__help__subcmd__assignment_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group diff help assignment commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__diff__subcmd__help__subcmd__help_commands] )) ||
_streams-group__subcmd__diff__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group diff help help commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__diff__subcmd__help__subcmd__topology_commands] )) ||
_streams-group__subcmd__diff__subcmd__help__subcmd__topology_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group diff help topology commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__diff__subcmd__topology_commands] )) ||
_streams-group__subcmd__diff__subcmd__topology_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group diff topology commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help_commands] )) ||
_streams-group__subcmd__help_commands() {
    local commands; commands=(
'simulate:Simulate Streams clients against the local coordinator on a virtual clock' \
'list:List the streams groups of a cluster' \
'describe:Describe streams groups\: state, members, offsets and lag, topology' \
'diff:Compare two topologies or two assignments' \
'check-epoch:Dry-run a topology epoch bump\: would the coordinator accept this topology?' \
'lag:Warm-up and restoration lag per task, against acceptable.recovery.lag' \
'topology:Parse a topology and show its tasks and internal topics' \
'reset-offsets:Reset committed offsets of Empty streams groups (a dry run unless --execute)' \
'delete-offsets:Delete committed offsets of an Empty streams group (a dry run unless --execute)' \
'delete:Delete Empty streams groups and their internal topics (a dry run unless --execute)' \
'timeline:Replay a \`describe --watch --record\` recording as a timeline of the rebalance' \
'history:What the coordinator decided, read back from __consumer_offsets' \
'completions:Print a shell completion script' \
'man:Print or install the manual pages' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'streams-group help commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__check-epoch_commands] )) ||
_streams-group__subcmd__help__subcmd__check-epoch_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help check-epoch commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__completions_commands] )) ||
_streams-group__subcmd__help__subcmd__completions_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help completions commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__delete_commands] )) ||
_streams-group__subcmd__help__subcmd__delete_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help delete commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__delete-offsets_commands] )) ||
_streams-group__subcmd__help__subcmd__delete-offsets_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help delete-offsets commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__describe_commands] )) ||
_streams-group__subcmd__help__subcmd__describe_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help describe commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__diff_commands] )) ||
_streams-group__subcmd__help__subcmd__diff_commands() {
    local commands; commands=(
'topology:Compare two topologies\: subtopologies, topics, copartition groups, and rollout hazards' \
'assignment:Compare assignments\: current vs target, two snapshots, or a snapshot vs a simulation' \
    )
    _describe -t commands 'streams-group help diff commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__diff__subcmd__assignment_commands] )) ||
_streams-group__subcmd__help__subcmd__diff__subcmd__assignment_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help diff assignment commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__diff__subcmd__topology_commands] )) ||
_streams-group__subcmd__help__subcmd__diff__subcmd__topology_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help diff topology commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__help_commands] )) ||
_streams-group__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help help commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__history_commands] )) ||
_streams-group__subcmd__help__subcmd__history_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help history commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__lag_commands] )) ||
_streams-group__subcmd__help__subcmd__lag_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help lag commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__list_commands] )) ||
_streams-group__subcmd__help__subcmd__list_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help list commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__man_commands] )) ||
_streams-group__subcmd__help__subcmd__man_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help man commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__reset-offsets_commands] )) ||
_streams-group__subcmd__help__subcmd__reset-offsets_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help reset-offsets commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__simulate_commands] )) ||
_streams-group__subcmd__help__subcmd__simulate_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help simulate commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__timeline_commands] )) ||
_streams-group__subcmd__help__subcmd__timeline_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help timeline commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__topology_commands] )) ||
_streams-group__subcmd__help__subcmd__topology_commands() {
    local commands; commands=(
'show:Draw the topology as text, Graphviz DOT or a Mermaid flowchart' \
    )
    _describe -t commands 'streams-group help topology commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__help__subcmd__topology__subcmd__show_commands] )) ||
_streams-group__subcmd__help__subcmd__topology__subcmd__show_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group help topology show commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__history_commands] )) ||
_streams-group__subcmd__history_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group history commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__lag_commands] )) ||
_streams-group__subcmd__lag_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group lag commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__list_commands] )) ||
_streams-group__subcmd__list_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group list commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__man_commands] )) ||
_streams-group__subcmd__man_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group man commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__reset-offsets_commands] )) ||
_streams-group__subcmd__reset-offsets_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group reset-offsets commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__simulate_commands] )) ||
_streams-group__subcmd__simulate_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group simulate commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__timeline_commands] )) ||
_streams-group__subcmd__timeline_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group timeline commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__topology_commands] )) ||
_streams-group__subcmd__topology_commands() {
    local commands; commands=(
'show:Draw the topology as text, Graphviz DOT or a Mermaid flowchart' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'streams-group topology commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__topology__subcmd__help_commands] )) ||
_streams-group__subcmd__topology__subcmd__help_commands() {
    local commands; commands=(
'show:Draw the topology as text, Graphviz DOT or a Mermaid flowchart' \
'help:Print this message or the help of the given subcommand(s)' \
    )
    _describe -t commands 'streams-group topology help commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__topology__subcmd__help__subcmd__help_commands] )) ||
_streams-group__subcmd__topology__subcmd__help__subcmd__help_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group topology help help commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__topology__subcmd__help__subcmd__show_commands] )) ||
_streams-group__subcmd__topology__subcmd__help__subcmd__show_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group topology help show commands' commands "$@"
}
(( $+functions[_streams-group__subcmd__topology__subcmd__show_commands] )) ||
_streams-group__subcmd__topology__subcmd__show_commands() {
    local commands; commands=()
    _describe -t commands 'streams-group topology show commands' commands "$@"
}

if [ "$funcstack[1]" = "_streams-group" ]; then
    _streams-group "$@"
else
    compdef _streams-group streams-group
fi
