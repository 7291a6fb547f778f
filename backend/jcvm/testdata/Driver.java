import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Driver calls the static methods of generated library classes, one call per
 * input line: "CLASS METHOD ARG..." where an ARG is B:HEX (a byte array), H:HEX
 * (a short array, four digits a short), S:N (a short) or I:N (an int). It
 * prints one line per call, as soon as the call returns: "OK RESULT HEX...
 * CHEX" (RESULT is - for void; then every array argument after the call; then
 * the class's carry array, where results beyond the first come back) or
 * "EX SW".
 */
public final class Driver {
    public static void main(String[] argv) throws Exception {
        java.util.Map<String, Class<?>> classes = new java.util.HashMap<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        for (String line; (line = in.readLine()) != null; out.setLength(0)) {
            String[] all = line.trim().split(" ");
            Class<?> cls = classes.get(all[0]);
            if (cls == null) {
                cls = Class.forName(all[0]);
                cls.getMethod("init").invoke(null);
                classes.put(all[0], cls);
            }
            String[] f = java.util.Arrays.copyOfRange(all, 1, all.length);
            Method m = null;
            for (Method c : cls.getMethods()) {
                if (c.getName().equals(f[0])) {
                    m = c;
                }
            }
            Object[] args = new Object[f.length - 1];
            for (int i = 1; i < f.length; i++) {
                String v = f[i].substring(2);
                switch (f[i].charAt(0)) {
                    case 'B': args[i - 1] = hex(v); break;
                    case 'H': args[i - 1] = shorts(v); break;
                    case 'S': args[i - 1] = (short) Integer.parseInt(v); break;
                    default: args[i - 1] = Integer.parseInt(v); break;
                }
            }
            try {
                Object r = m.invoke(null, args);
                out.append("OK ").append(r == null ? "-" : r.toString());
                for (Object a : args) {
                    if (a instanceof byte[]) {
                        out.append(' ').append(unhex((byte[]) a));
                    } else if (a instanceof short[]) {
                        out.append(' ').append(unshorts((short[]) a));
                    }
                }
                out.append(" C").append(unshorts((short[]) carry(cls)));
                out.append('\n');
            } catch (InvocationTargetException e) {
                Throwable t = e.getCause();
                if (t instanceof javacard.framework.ISOException) {
                    out.append("EX ").append(((javacard.framework.ISOException) t).getReason() & 0xffff).append('\n');
                } else {
                    out.append("ERR ").append(t).append('\n');
                }
            }
            System.out.print(out);
            System.out.flush();
        }
    }

    static short[] carry(Class<?> cls) throws Exception {
        java.lang.reflect.Field f = cls.getDeclaredField("carry");
        f.setAccessible(true);
        return (short[]) f.get(null);
    }

    static short[] shorts(String s) {
        short[] h = new short[s.length() / 4];
        for (int i = 0; i < h.length; i++) {
            h[i] = (short) Integer.parseInt(s.substring(4 * i, 4 * i + 4), 16);
        }
        return h;
    }

    static String unshorts(short[] h) {
        StringBuilder s = new StringBuilder();
        for (short x : h) {
            s.append(String.format("%04x", x & 0xffff));
        }
        return s.toString();
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
        return s.length() == 0 ? "" : s.toString();
    }
}
