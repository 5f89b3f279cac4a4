package dev.machinery.conversion.processor.shapes.internal;

public enum Protocol {
  TCP,
  UDP,
  SCTP
}
