package javacard.framework;

/** JCSystem is the part of the Java Card system class the generated code uses (a host stub). */
public final class JCSystem {
    public static final byte CLEAR_ON_RESET = 1;
    public static final byte CLEAR_ON_DESELECT = 2;

    private JCSystem() {}

    public static byte[] makeTransientByteArray(short length, byte event) {
        return new byte[length];
    }

    public static short[] makeTransientShortArray(short length, byte event) {
        return new short[length];
    }
}
