package dev.machinery.conversion.processor.shapes.v1;

/** v1 writes a gadget's size as one string, "WIDTHxHEIGHT". */
public record Gadget(String size) {}
