#!/bin/sh
# CI gate for a Kafka Streams deployment: would the group coordinator accept this build's
# topology at this topology epoch?
#
#   group.json      snapshot of the running group, taken beforehand from the cluster:
#                   streams-group describe --bootstrap-server "$KAFKA" --group wordcount \
#                       --output json > group.json
#   topology.txt    this build's Topology#describe() output (printed by the build or a test)
#   topology.epoch  the topology epoch this build's members send
#   KAFKA_VERSION   optional: the coordinator to check against when not the one recorded in
#                   group.json (4.2, 4.3, 4.4, or kip for the KIP-1071 epoch rules)
set -u

epoch=$(cat topology.epoch)
streams-group check-epoch \
    --snapshot group.json \
    --topology topology.txt \
    --application-id wordcount \
    --topology-epoch "$epoch" \
    ${KAFKA_VERSION:+--kafka-version "$KAFKA_VERSION"}
status=$?

case $status in
    0) echo "ok: topology epoch $epoch is accepted" ;;
    1) echo "blocked: the coordinator would reject topology epoch $epoch (see above)" >&2 ;;
    2) echo "check-epoch: bad usage or input" >&2 ;;
    3) echo "check-epoch: cluster unreachable" >&2 ;;
    *) echo "check-epoch: failed with status $status" >&2 ;;
esac
exit "$status"
