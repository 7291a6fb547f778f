package javacard.framework;

/** Applet is the base class of Java Card applets (a host stub). */
public abstract class Applet {
    protected Applet() {}

    public abstract void process(APDU apdu) throws ISOException;

    protected final void register() {}

    protected final boolean selectingApplet() {
        return false;
    }
}
