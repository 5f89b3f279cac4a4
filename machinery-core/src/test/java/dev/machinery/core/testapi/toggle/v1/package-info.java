/** Toggle v1: its mode is free text on the wire. */
@GenerateConversions(internalPackage = "dev.machinery.core.testapi.toggle.internal")
package dev.machinery.core.testapi.toggle.v1;

import dev.machinery.conversion.GenerateConversions;
