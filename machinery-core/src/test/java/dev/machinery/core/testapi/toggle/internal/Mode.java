package dev.machinery.core.testapi.toggle.internal;

/** The modes of a switch. */
public enum Mode {
  On,
  Off
}
