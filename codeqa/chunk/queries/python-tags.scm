; Python

; -- definitions -------------------------------------------------------------------------------------------------
(function_definition name: (identifier) @name.definition.function)
(class_definition name: (identifier) @name.definition.class)
(module (assignment left: (identifier) @name.definition.constant))
; names bound inside a function or a class body (variables, parameters, loop and `as` targets) are the file's own:
; a local `solves` is not a use of another module's `solves`
(assignment left: (identifier) @name.definition.variable)
(assignment left: (pattern_list (identifier) @name.definition.variable))
(assignment left: (tuple_pattern (identifier) @name.definition.variable))
(parameters (identifier) @name.definition.parameter)
(parameters (typed_parameter . (identifier) @name.definition.parameter))
(parameters (default_parameter name: (identifier) @name.definition.parameter))
(parameters (typed_default_parameter name: (identifier) @name.definition.parameter))
(for_statement left: (identifier) @name.definition.variable)
(for_statement left: (pattern_list (identifier) @name.definition.variable))
(for_statement left: (tuple_pattern (identifier) @name.definition.variable))
(as_pattern alias: (as_pattern_target (identifier) @name.definition.variable))

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
