import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;

import javacard.framework.APDU;
import javacard.framework.APDUException;
import javacard.framework.Applet;
import javacard.framework.ISOException;

/**
 * AppletDriver plays a terminal: "INSTALL CLASS" installs an applet through
 * its static install method (as the card's installer would), "APDU HEX"
 * sends one command APDU to the installed applet. It prints one line per
 * APDU: "SW HEX" (the status word, then the response data, possibly empty).
 * An uncaught exception other than ISOException is answered 6F00, as a card
 * does, and named on the line so a test shows it.
 */
public final class AppletDriver {
    public static void main(String[] argv) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        Applet applet = null;
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.trim().split(" ");
            if (f[0].equals("INSTALL")) {
                Method install = Class.forName(f[1]).getMethod("install", byte[].class, short.class, byte.class);
                install.setAccessible(true);
                install.invoke(null, new byte[0], (short) 0, (byte) 0);
                applet = Applet.lastRegistered();
                continue;
            }
            APDU apdu = new APDU(Driver.hex(f.length > 1 ? f[1] : ""));
            String sw = "9000";
            String data = "";
            try {
                applet.process(apdu);
                data = Driver.unhex(apdu.getResponse());
            } catch (ISOException e) {
                sw = String.format("%04x", e.getReason() & 0xffff);
            } catch (APDUException e) {
                sw = "6f00/APDUException:" + e.getReason();
            } catch (RuntimeException e) {
                sw = ("6f00/" + e).replace(' ', '_');
            }
            out.append(sw).append(' ').append(data).append('\n');
        }
        System.out.print(out);
    }
}
