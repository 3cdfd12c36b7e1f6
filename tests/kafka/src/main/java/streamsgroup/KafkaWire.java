package streamsgroup;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;

/**
 * One plaintext connection to one broker that sends Kafka requests built from kafka-clients'
 * generated message classes and reads their answers, many in flight at once.
 *
 * <p>Why not the Admin or a consumer: a load maker plays thousands of streams group members from
 * one JVM, and the client library keeps one heartbeat thread (and one connection set) per
 * consumer. The message classes and {@link RequestUtils#serialize} are the same on 4.1 to 4.4,
 * while the request builders' constructors differ between releases, so requests are serialized
 * from the message data directly.
 *
 * <p>The broker answers the requests of one connection in order, so a window of requests is
 * written before their answers are read: a round of N heartbeats costs about one round trip
 * per window instead of N.
 */
final class KafkaWire implements AutoCloseable {
    /** Requests written before their answers are read (the socket buffers hold them). */
    private static final int WINDOW = 64;

    private final String address;
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final Map<ApiKeys, Short> brokerMax = new EnumMap<>(ApiKeys.class);
    private int correlation = 0;

    private KafkaWire(String address, Socket socket) throws IOException {
        this.address = address;
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
    }

    /** Connects to HOST:PORT and learns the broker's API versions (ApiVersions v0). */
    static KafkaWire connect(String host, int port, int timeoutMs) throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.setSoTimeout(timeoutMs);
        s.connect(new InetSocketAddress(host, port), timeoutMs);
        KafkaWire w = new KafkaWire(host + ":" + port, s);
        ApiMessage r = w.exchange(ApiKeys.API_VERSIONS, (short) 0, List.of(new ApiVersionsRequestData())).get(0);
        ApiVersionsResponseData v = (ApiVersionsResponseData) r;
        if (v.errorCode() != 0) {
            throw new IOException("ApiVersions to " + w.address + " failed with error code " + v.errorCode());
        }
        for (ApiVersionsResponseData.ApiVersion a : v.apiKeys()) {
            if (ApiKeys.hasId(a.apiKey())) {
                w.brokerMax.put(ApiKeys.forId(a.apiKey()), a.maxVersion());
            }
        }
        return w;
    }

    static KafkaWire connect(String hostPort, int timeoutMs) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        return connect(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)), timeoutMs);
    }

    String address() {
        return address;
    }

    /** The highest version both sides speak, at most {@code cap}; fails when the broker lacks the API. */
    short version(ApiKeys key, short cap) throws IOException {
        Short max = brokerMax.get(key);
        if (max == null) {
            throw new IOException("broker " + address + " does not offer " + key
                + " (a streams-group broker needs Kafka 4.1+, and 4.1 needs unstable.api.versions.enable=true)");
        }
        return (short) Math.min(Math.min(max, cap), key.latestVersion(true));
    }

    /** Sends every request (same API and version), returns the answers' data in the same order. */
    List<ApiMessage> exchange(ApiKeys key, short version, List<? extends ApiMessage> requests) throws IOException {
        List<ApiMessage> answers = new ArrayList<>(requests.size());
        ArrayDeque<RequestHeader> inFlight = new ArrayDeque<>();
        int next = 0;
        while (answers.size() < requests.size()) {
            while (next < requests.size() && inFlight.size() < WINDOW) {
                RequestHeader h = new RequestHeader(key, version, "streams-group-load", correlation++);
                ByteBuffer b = RequestUtils.serialize(h.data(), h.headerVersion(), requests.get(next++), version);
                out.writeInt(b.remaining());
                out.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
                inFlight.add(h);
            }
            out.flush();
            answers.add(read(inFlight.poll()));
        }
        return answers;
    }

    private ApiMessage read(RequestHeader h) throws IOException {
        int size = in.readInt();
        byte[] body = new byte[size];
        in.readFully(body);
        return AbstractResponse.parseResponse(ByteBuffer.wrap(body), h).data();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is best effort: the process is ending or the broker went away
        }
    }
}
