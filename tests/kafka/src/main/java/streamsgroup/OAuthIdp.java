package streamsgroup;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A small OAuth identity provider for the harness's OAUTHBEARER listener: the broker validates
 * JWTs against its JWKS, clients get tokens from its client-credentials token endpoint.
 * Loopback only, one RSA key generated at start (RS256), no dependencies beyond the JDK.
 *
 * <pre>
 * GET  /jwks                 the public key as a JWKS (sasl.oauthbearer.jwks.endpoint.url)
 * POST /token                client_credentials grant (HTTP Basic or form client_id/secret)
 * GET  /mint?lifetime_s=N    a signed token, for token files (N may be negative: expired)
 * GET  /html                 an HTML page, as a misconfigured token endpoint would answer
 * </pre>
 *
 * Usage: OAuthIdp --port-file FILE --client-id ID --client-secret S [--lifetime-s N]
 *        [--https-keystore P12 --https-password PW --https-port-file FILE]  (/token over HTTPS too)
 */
public final class OAuthIdp {
    private static final Base64.Encoder B64URL = Base64.getUrlEncoder().withoutPadding();
    private static final String KID = "harness-key";

    private final KeyPair key;
    private final String clientId;
    private final String clientSecret;
    private final long lifetimeS;
    private final java.util.concurrent.ConcurrentHashMap<String, Integer> grants = new java.util.concurrent.ConcurrentHashMap<>();

    private OAuthIdp(KeyPair key, String clientId, String clientSecret, long lifetimeS) {
        this.key = key;
        this.clientId = clientId;
        this.clientSecret = clientSecret;
        this.lifetimeS = lifetimeS;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) a.put(args[i], args[i + 1]);
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        OAuthIdp idp = new OAuthIdp(gen.generateKeyPair(), a.get("--client-id"), a.get("--client-secret"),
            Long.parseLong(a.getOrDefault("--lifetime-s", "3600")));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/jwks", ex -> idp.answer(ex, 200, "application/json", idp.jwks()));
        server.createContext("/token", idp::token);
        server.createContext("/mint", idp::mint);
        // How many tokens the client-credentials grant issued for a scope: what shows a client
        // fetched new tokens as the old ones expired.
        server.createContext("/grants", ex -> {
            String q = ex.getRequestURI().getQuery();
            String scope = q != null && q.startsWith("scope=") ? q.substring(6) : "";
            idp.answer(ex, 200, "text/plain", Integer.toString(idp.grants.getOrDefault(scope, 0)));
        });
        server.createContext("/html", ex -> idp.answer(ex, 200, "text/html",
            "<!DOCTYPE html><html><body><h1>Sign in</h1></body></html>"));
        server.start();
        if (a.containsKey("--https-keystore")) {
            int httpsPort = startHttps(idp, Path.of(a.get("--https-keystore")), a.get("--https-password"));
            Path httpsFile = Path.of(a.get("--https-port-file"));
            Files.writeString(httpsFile, Integer.toString(httpsPort));
        }
        // Written last, so that a reader of the file knows the server listens.
        Path portFile = Path.of(a.get("--port-file"));
        Path tmp = Path.of(portFile + ".tmp");
        Files.writeString(tmp, Integer.toString(server.getAddress().getPort()));
        Files.move(tmp, portFile);
    }

    /** The token endpoint again over HTTPS, with the PKCS12 key store's key (signed by the harness CA). */
    private static int startHttps(OAuthIdp idp, Path keystore, String password) throws Exception {
        char[] pw = password.toCharArray();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(keystore)) {
            ks.load(in, pw);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, pw);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        HttpsServer https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        https.setHttpsConfigurator(new HttpsConfigurator(ctx));
        https.createContext("/token", idp::token);
        https.start();
        return https.getAddress().getPort();
    }

    private String jwks() {
        RSAPublicKey pub = (RSAPublicKey) key.getPublic();
        return "{\"keys\":[{\"kty\":\"RSA\",\"use\":\"sig\",\"alg\":\"RS256\",\"kid\":\"" + KID + "\",\"n\":\""
            + unsigned(pub.getModulus()) + "\",\"e\":\"" + unsigned(pub.getPublicExponent()) + "\"}]}";
    }

    private static String unsigned(BigInteger v) {
        byte[] b = v.toByteArray();
        int skip = (b.length > 1 && b[0] == 0) ? 1 : 0;
        byte[] out = new byte[b.length - skip];
        System.arraycopy(b, skip, out, 0, out.length);
        return B64URL.encodeToString(out);
    }

    private String jwt(String subject, String scope, long lifetime) throws IOException {
        long now = System.currentTimeMillis() / 1000;
        String header = "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"" + KID + "\"}";
        String claims = "{\"sub\":\"" + subject + "\",\"iat\":" + now + ",\"exp\":" + (now + lifetime)
            + ",\"scope\":\"" + scope + "\"}";
        String signingInput = B64URL.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
            + B64URL.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(key.getPrivate());
            s.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return signingInput + "." + B64URL.encodeToString(s.sign());
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    private void token(HttpExchange ex) throws IOException {
        Map<String, String> form = form(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        String id = form.get("client_id");
        String secret = form.get("client_secret");
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (auth != null && auth.startsWith("Basic ")) {
            String pair = new String(Base64.getDecoder().decode(auth.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = pair.indexOf(':');
            id = URLDecoder.decode(pair.substring(0, Math.max(colon, 0)), StandardCharsets.UTF_8);
            secret = URLDecoder.decode(pair.substring(colon + 1), StandardCharsets.UTF_8);
        }
        if (!"client_credentials".equals(form.get("grant_type"))) {
            answer(ex, 400, "application/json",
                "{\"error\":\"unsupported_grant_type\",\"error_description\":\"only client_credentials\"}");
        } else if (!clientId.equals(id) || !clientSecret.equals(secret)) {
            answer(ex, 401, "application/json",
                "{\"error\":\"invalid_client\",\"error_description\":\"client authentication failed: unknown client or wrong secret\"}");
        } else {
            String scope = form.getOrDefault("scope", "kafka");
            grants.merge(scope, 1, Integer::sum);
            answer(ex, 200, "application/json", "{\"access_token\":\"" + jwt(id, scope, lifetimeS)
                + "\",\"token_type\":\"Bearer\",\"expires_in\":" + lifetimeS + "}");
        }
    }

    private void mint(HttpExchange ex) throws IOException {
        String q = ex.getRequestURI().getRawQuery();
        long lifetime = Long.parseLong(form(q == null ? "" : q).getOrDefault("lifetime_s", Long.toString(lifetimeS)));
        answer(ex, 200, "application/jwt", jwt(clientId, "kafka", lifetime));
    }

    private static Map<String, String> form(String body) {
        Map<String, String> m = new HashMap<>();
        for (String kv : body.split("&")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                m.put(URLDecoder.decode(kv.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return m;
    }

    private void answer(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }
}
