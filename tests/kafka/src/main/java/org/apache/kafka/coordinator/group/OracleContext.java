package org.apache.kafka.coordinator.group;

import java.net.InetAddress;

import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;

/** The request context of one StreamsGroupHeartbeat: PLAINTEXT, ANONYMOUS, the given client. */
final class OracleContext implements AuthorizableRequestContext {
    private final String clientId;
    private final InetAddress clientAddress;
    private final int requestVersion;
    private final int correlationId;

    OracleContext(String clientId, InetAddress clientAddress, int requestVersion, int correlationId) {
        this.clientId = clientId;
        this.clientAddress = clientAddress;
        this.requestVersion = requestVersion;
        this.correlationId = correlationId;
    }

    @Override
    public String listenerName() {
        return "PLAINTEXT";
    }

    @Override
    public SecurityProtocol securityProtocol() {
        return SecurityProtocol.PLAINTEXT;
    }

    @Override
    public KafkaPrincipal principal() {
        return KafkaPrincipal.ANONYMOUS;
    }

    @Override
    public InetAddress clientAddress() {
        return clientAddress;
    }

    @Override
    public int requestType() {
        return ApiKeys.STREAMS_GROUP_HEARTBEAT.id;
    }

    @Override
    public int requestVersion() {
        return requestVersion;
    }

    @Override
    public String clientId() {
        return clientId;
    }

    @Override
    public int correlationId() {
        return correlationId;
    }
}
