/** Widgets v1: the spec calls its maintainer "owner". */
@GenerateConversions(internalPackage = "com.example.widgets.internal", uses = StandardConversions.class)
package com.example.widgets.v1;

import dev.machinery.conversion.GenerateConversions;
import dev.machinery.conversion.StandardConversions;
