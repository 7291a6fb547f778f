package javacard.framework;

/** Util is the Java Card byte-array helper class (a host stub; big-endian like the real one). */
public final class Util {
    private Util() {}

    public static short arrayCopyNonAtomic(byte[] src, short srcOff, byte[] dest, short destOff, short length) {
        System.arraycopy(src, srcOff, dest, destOff, length);
        return (short) (destOff + length);
    }

    public static short getShort(byte[] bArray, short bOff) {
        return (short) ((bArray[bOff] << 8) | (bArray[bOff + 1] & 0xff));
    }

    public static short setShort(byte[] bArray, short bOff, short sValue) {
        bArray[bOff] = (byte) (sValue >> 8);
        bArray[bOff + 1] = (byte) sValue;
        return (short) (bOff + 2);
    }

    public static short makeShort(byte b1, byte b2) {
        return (short) ((b1 << 8) | (b2 & 0xff));
    }
}
