import java.io.BufferedReader;
import java.io.InputStreamReader;

import com.licel.jcardsim.base.Simulator;
import com.licel.jcardsim.utils.AIDUtil;
import javacard.framework.AID;
import javacard.framework.Applet;

/**
 * JCardSimDriver plays a terminal in front of jCardSim's Simulator (the
 * base of CardSimulator, whose javax.smartcardio overloads javac --release 7
 * cannot resolve): "INSTALL AID CLASS"
 * installs an applet class under an AID, "SELECT AID" selects it, "APDU HEX"
 * sends one command APDU to the selected applet. It prints one line per
 * APDU: "R SW HEX" (the status word, then the response data, possibly
 * empty); jCardSim prints lines of its own on stdout too.
 */
public final class JCardSimDriver {
    public static void main(String[] argv) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        Simulator sim = new Simulator();
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.trim().split(" ");
            if (f[0].equals("INSTALL")) {
                AID aid = AIDUtil.create(f[1]);
                sim.installApplet(aid, Class.forName(f[2]).asSubclass(Applet.class));
                continue;
            }
            if (f[0].equals("SELECT")) {
                if (!sim.selectApplet(AIDUtil.create(f[1]))) {
                    throw new IllegalStateException("cannot select " + f[1]);
                }
                continue;
            }
            // The raw response: its data, then SW1 SW2.
            byte[] r = sim.transmitCommand(hex(f[1]));
            int n = r.length - 2;
            out.append("R ").append(String.format("%02x%02x", r[n] & 0xff, r[n + 1] & 0xff)).append(' ');
            out.append(unhex(java.util.Arrays.copyOf(r, n))).append('\n');
        }
        System.out.print(out);
    }

    static byte[] hex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    static String unhex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x & 0xff));
        }
        return s.toString();
    }
}
