package streamsgroup;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.apache.kerby.kerberos.kerb.server.SimpleKdcServer;

/**
 * A Kerberos KDC for the harness's GSSAPI listener: Apache Kerby's SimpleKdcServer (what Kafka's
 * own MiniKdc runs), in memory, TCP only, on loopback. It creates the broker's service
 * principal and a client principal with keytabs in DIR, writes a krb5.conf that both MIT
 * Kerberos (KRB5_CONFIG) and the JDK (-Djava.security.krb5.conf) read, and runs until killed.
 *
 * <p>Also one principal the KDC no longer knows ({@code gone@REALM}, keytab {@code gone.keytab}):
 * its keytab is well formed, and the KDC refuses it ("client not found").
 *
 * <p>Usage: Kdc --dir DIR --port PORT [--realm EXAMPLE.COM] [--service kafka/localhost]
 * Writes DIR/kafka.keytab, DIR/client.keytab, DIR/gone.keytab, DIR/krb5.conf, then DIR/ready.
 */
public final class Kdc {
    private Kdc() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) a.put(args[i], args[i + 1]);
        File dir = new File(a.get("--dir"));
        int port = Integer.parseInt(a.get("--port"));
        String realm = a.getOrDefault("--realm", "EXAMPLE.COM");
        String service = a.getOrDefault("--service", "kafka/localhost");

        SimpleKdcServer kdc = new SimpleKdcServer();
        File work = new File(dir, "kdc");
        work.mkdirs();
        kdc.setWorkDir(work);
        kdc.setKdcRealm(realm);
        kdc.setKdcHost("127.0.0.1");
        kdc.setAllowUdp(false);
        kdc.setKdcTcpPort(port);
        kdc.init();
        kdc.start();

        kdc.createAndExportPrincipals(new File(dir, "kafka.keytab"), service + "@" + realm);
        kdc.createAndExportPrincipals(new File(dir, "client.keytab"), "client@" + realm);
        kdc.createAndExportPrincipals(new File(dir, "gone.keytab"), "gone@" + realm);
        kdc.deletePrincipal("gone@" + realm);

        Files.writeString(dir.toPath().resolve("krb5.conf"), krb5Conf(realm, port));
        // Written last: a reader of this file knows the KDC answers.
        Path ready = dir.toPath().resolve("ready");
        Files.writeString(Path.of(ready + ".tmp"), Integer.toString(port));
        Files.move(Path.of(ready + ".tmp"), ready);
        Thread.currentThread().join();
    }

    /**
     * TCP only (udp_preference_limit = 1: the KDC has no UDP port), and host names taken as
     * given: no DNS canonicalisation or reverse lookup of the service's host, so the service
     * principal is {@code kafka/<the host the client names>}.
     */
    private static String krb5Conf(String realm, int port) {
        return "[libdefaults]\n"
            + "    default_realm = " + realm + "\n"
            + "    dns_lookup_realm = false\n"
            + "    dns_lookup_kdc = false\n"
            + "    dns_canonicalize_hostname = false\n"
            + "    rdns = false\n"
            + "    udp_preference_limit = 1\n"
            + "    ticket_lifetime = 24h\n"
            + "    forwardable = true\n"
            + "\n"
            + "[realms]\n"
            + "    " + realm + " = {\n"
            + "        kdc = 127.0.0.1:" + port + "\n"
            + "    }\n"
            + "\n"
            + "[domain_realm]\n"
            + "    localhost = " + realm + "\n";
    }
}
