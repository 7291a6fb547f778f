package javacard.framework;

/** SystemException reports a JCRE failure such as running out of memory (a host stub). */
public class SystemException extends RuntimeException {
    public static final short NO_TRANSIENT_SPACE = 4;

    private final short reason;

    public SystemException(short reason) {
        super("SystemException " + reason);
        this.reason = reason;
    }

    public short getReason() {
        return reason;
    }

    public static void throwIt(short reason) {
        throw new SystemException(reason);
    }
}
