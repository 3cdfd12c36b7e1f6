package streamsgroup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.security.auth.callback.Callback;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerTokenCallback;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.regions.Region;
import software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler;
import software.amazon.msk.auth.iam.internals.AWS4SignedPayloadGenerator;
import software.amazon.msk.auth.iam.internals.AuthenticationRequestParams;
import software.amazon.msk.auth.iam.internals.UserAgentUtils;
import software.amazon.msk.auth.iam.internals.region.ConfigurableRegionProvider;
import software.amazon.msk.auth.iam.internals.utils.RegionUtils;

/**
 * The AWS_MSK_IAM client message as Amazon's aws-msk-iam-auth library writes it, for the
 * differential test tests/oracles/msk_iam.rs. One JSON request per stdin line, one JSON answer
 * per stdout line:
 *
 * <pre>
 * {"op":"payload","access_key":"AKID","secret_key":"...","session_token":null|"...","host":"b-1...","user_agent":"ua"}
 *   -> {"payload":"BASE64 of the bytes","region":"us-east-1"}
 * {"op":"region","host":"..."}
 *   -> {"region":"us-east-1"} or {"region":null} (the host names no region)
 * {"op":"user_agent"} -> {"user_agent":"aws-msk-iam-auth/2.4.0/..."}
 * {"op":"oauth_token","access_key":"AKID","secret_key":"...","session_token":null|"...","region":"eu-west-1"}
 *   -> {"token":"BASE64URL of the presigned URL","lifetime_ms":N,"start_time_ms":N}
 * </pre>
 *
 * The payload goes through the library's own path, as IAMSaslClient.generateClientMessage does:
 * AuthenticationRequestParams.create(host, credentials, userAgent) (which finds the region in
 * the host name) and AWS4SignedPayloadGenerator.signedPayload. The library signs with the
 * system clock (Instant.now() for the 15-minute expiry, the SDK signer's own clock for
 * X-Amz-Date), so the caller reads x-amz-date and x-amz-expires from the payload and signs with
 * them: equal bytes then mean equal signing. The fallback region provider of "region" is the
 * library's seam (ConfigurableRegionProvider), so that no AWS_REGION or instance metadata is read.
 *
 * "oauth_token" runs the library's IAMOAuthBearerLoginCallbackHandler itself (MSK's OAUTHBEARER
 * variant), configured without a JAAS entry as Kafka would with no options: its default chains
 * then take the credentials and the region from the aws.accessKeyId / aws.secretAccessKey /
 * aws.sessionToken / aws.region system properties, the first source of each chain, set here.
 */
public final class MskIamOracle {
    private static final Region NO_REGION = Region.of("streams-group-no-region");

    public static void main(String[] args) throws Exception {
        ObjectMapper json = new ObjectMapper();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode req = json.readTree(line);
            ObjectNode out = json.createObjectNode();
            switch (req.path("op").asText()) {
                case "payload" -> payload(req, out);
                case "region" -> {
                    Region r = RegionUtils.extractRegionFromHost(req.get("host").asText(), fixed());
                    out.put("region", r.equals(NO_REGION) ? null : r.id());
                }
                case "oauth_token" -> oauthToken(req, out);
                case "user_agent" -> out.put("user_agent", UserAgentUtils.getUserAgentValue());
                default -> {
                    System.err.println("MskIamOracle: unknown op in " + line);
                    System.exit(2);
                }
            }
            System.out.println(json.writeValueAsString(out));
            System.out.flush();
        }
    }

    private static void payload(JsonNode req, ObjectNode out) throws Exception {
        String id = req.get("access_key").asText();
        String secret = req.get("secret_key").asText();
        JsonNode token = req.get("session_token");
        AwsCredentials creds = token == null || token.isNull()
            ? AwsBasicCredentials.create(id, secret)
            : AwsSessionCredentials.create(id, secret, token.asText());
        AuthenticationRequestParams params = AuthenticationRequestParams.create(
            req.get("host").asText(), creds, req.get("user_agent").asText(), fixed());
        byte[] bytes = new AWS4SignedPayloadGenerator().signedPayload(params);
        out.put("payload", Base64.getEncoder().encodeToString(bytes));
        out.put("region", params.getRegion().id());
    }

    private static void oauthToken(JsonNode req, ObjectNode out) throws Exception {
        System.setProperty("aws.accessKeyId", req.get("access_key").asText());
        System.setProperty("aws.secretAccessKey", req.get("secret_key").asText());
        JsonNode token = req.get("session_token");
        if (token == null || token.isNull()) {
            System.clearProperty("aws.sessionToken");
        } else {
            System.setProperty("aws.sessionToken", token.asText());
        }
        System.setProperty("aws.region", req.get("region").asText());
        IAMOAuthBearerLoginCallbackHandler handler = new IAMOAuthBearerLoginCallbackHandler();
        handler.configure(Map.of(), "OAUTHBEARER", List.of());
        OAuthBearerTokenCallback callback = new OAuthBearerTokenCallback();
        handler.handle(new Callback[] {callback});
        out.put("token", callback.token().value());
        out.put("lifetime_ms", callback.token().lifetimeMs());
        out.put("start_time_ms", callback.token().startTimeMs());
        handler.close();
    }

    /** A region provider that answers a sentinel: the host itself named no region. */
    private static ConfigurableRegionProvider fixed() {
        return new ConfigurableRegionProvider() {
            @Override
            public Region getRegion(String host) {
                return NO_REGION;
            }

            @Override
            public Region getRegion() {
                return NO_REGION;
            }
        };
    }
}
