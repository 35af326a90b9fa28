; Python

; -- definitions -------------------------------------------------------------------------------------------------
(function_definition name: (identifier) @name.definition.function)
(class_definition name: (identifier) @name.definition.class)
(module (assignment left: (identifier) @name.definition.constant))

; -- references --------------------------------------------------------------------------------------------------
(call function: (identifier) @name.reference.call)
(call function: (attribute attribute: (identifier) @name.reference.call))
(class_definition superclasses: (argument_list (identifier) @name.reference.class))
(class_definition superclasses: (argument_list (attribute attribute: (identifier) @name.reference.class)))
(type (identifier) @name.reference.type)
(decorator (identifier) @name.reference.call)
(identifier) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
(import_statement name: (dotted_name) @import)
(import_statement name: (aliased_import name: (dotted_name) @import))
(import_from_statement
  module_name: (_) @import
  name: [(dotted_name) @import.name (aliased_import name: (dotted_name) @import.name)])
(import_from_statement module_name: (_) @import (wildcard_import))
