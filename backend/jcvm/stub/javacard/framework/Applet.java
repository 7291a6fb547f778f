package javacard.framework;

/** Applet is the base class of Java Card applets (a host stub). */
public abstract class Applet {
    private static Applet registered;

    protected Applet() {}

    public abstract void process(APDU apdu) throws ISOException;

    /** register records the applet, as the card's registry would. */
    protected final void register() {
        registered = this;
    }

    protected final boolean selectingApplet() {
        return false;
    }

    /** lastRegistered returns the applet that registered last (stub only: a test's way to reach an installed applet). */
    public static Applet lastRegistered() {
        return registered;
    }
}
