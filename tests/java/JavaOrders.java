import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Ground truth for streams-group's Java-order emulation (tests/oracles/java_orders.rs), run with the
 * JDK's source launcher: {@code java JavaOrders.java}. Reads one case per line on stdin and
 * prints one answer line per case. Strings travel as url-safe base64 of their UTF-8 bytes.
 *
 * <pre>
 * hash S1 S2 ...            -> String.hashCode of each, and sign(S1.compareTo(Si)) for each
 * map CAP OP KEY OP KEY ... -> a HashMap (CAP -1: new HashMap<>(), else new HashMap<>(CAP));
 *                              OP is P (put), C (computeIfAbsent), R (remove), or O (print
 *                              the key order now); prints every O's order, ';'-separated
 * pq OP V OP V ...          -> a PriorityQueue of (id, value) by value: A V adds the next id
 *                              with value V, P polls; prints the polled ids
 * idset CAP H1 H2 ...       -> draws 8 identity hashes, then adds objects with hash codes H1,
 *                              H2, ... (no equals, not Comparable) to new HashSet<>(CAP);
 *                              prints the 8 draws, ';', the objects' indices in iteration
 *                              order, ';', their identity hashes (0: never drawn)
 * </pre>
 */
public class JavaOrders {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split(" ");
            StringBuilder sb = new StringBuilder();
            switch (w[0]) {
                case "hash" -> {
                    String first = w.length > 1 ? decode(w[1]) : "";
                    for (int i = 1; i < w.length; i++) {
                        String s = decode(w[i]);
                        sb.append(s.hashCode()).append(':').append(Integer.signum(first.compareTo(s))).append(' ');
                    }
                }
                case "map" -> {
                    int cap = Integer.parseInt(w[1]);
                    Map<String, Integer> map = cap < 0 ? new HashMap<>() : new HashMap<>(cap);
                    for (int i = 2; i < w.length; i++) {
                        switch (w[i]) {
                            case "P" -> map.put(decode(w[++i]), 0);
                            case "C" -> map.computeIfAbsent(decode(w[++i]), k -> 0);
                            case "R" -> map.remove(decode(w[++i]));
                            case "O" -> {
                                for (String k : map.keySet()) {
                                    sb.append(encode(k)).append(',');
                                }
                                sb.append(';');
                            }
                            default -> throw new IllegalArgumentException(w[i]);
                        }
                    }
                }
                case "pq" -> {
                    PriorityQueue<int[]> q = new PriorityQueue<>(Comparator.comparingInt(e -> e[1]));
                    int next = 0;
                    for (int i = 1; i < w.length; i++) {
                        if (w[i].equals("A")) {
                            q.add(new int[] {next++, Integer.parseInt(w[++i])});
                        } else {
                            int[] e = q.poll();
                            sb.append(e == null ? -1 : e[0]).append(' ');
                        }
                    }
                }
                case "idset" -> {
                    int cap = Integer.parseInt(w[1]);
                    List<Keyed> keys = new ArrayList<>();
                    for (int i = 2; i < w.length; i++) {
                        keys.add(new Keyed(Integer.parseInt(w[i]), i - 2));
                    }
                    java.util.Set<Keyed> set = new java.util.HashSet<>(cap);
                    // Nothing may hash an object between the draws and the adds.
                    int[] drawn = new int[8];
                    for (int i = 0; i < drawn.length; i++) {
                        drawn[i] = System.identityHashCode(new Object());
                    }
                    for (Keyed k : keys) {
                        set.add(k);
                    }
                    int[] after = new int[8];
                    for (int i = 0; i < after.length; i++) {
                        after[i] = System.identityHashCode(new Object());
                    }
                    for (int d : drawn) {
                        sb.append(d).append(' ');
                    }
                    sb.append(';');
                    for (Keyed k : set) {
                        sb.append(k.index).append(' ');
                    }
                    sb.append(';');
                    for (int d : after) {
                        sb.append(d).append(' ');
                    }
                }
                default -> throw new IllegalArgumentException(w[0]);
            }
            out.println(sb.toString().trim());
            out.flush();
        }
    }

    /** A key with a given hash code, identity equality, and no natural order. */
    private static final class Keyed {
        final int hash;
        final int index;

        Keyed(int hash, int index) {
            this.hash = hash;
            this.index = index;
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private static String decode(String b64) {
        return new String(Base64.getUrlDecoder().decode(b64), StandardCharsets.UTF_8);
    }

    private static String encode(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
