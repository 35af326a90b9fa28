; Haskell

; -- definitions -------------------------------------------------------------------------------------------------
; a function's signature and each of its equations name it (the chunker groups them into one unit)
(signature name: (variable) @name.definition.function)
(signature names: (binding_list (variable) @name.definition.function))
(function name: (variable) @name.definition.function)
; a value bound at the top or in a class/instance (one in a `where`/`let` is a local variable)
(declarations (bind name: (variable) @name.definition.function))
(class_declarations (bind name: (variable) @name.definition.function))
(instance_declarations (bind name: (variable) @name.definition.function))
(data_type name: (name) @name.definition.class)
(newtype name: (name) @name.definition.class)
(type_synomym name: (name) @name.definition.type)
(type_family name: (name) @name.definition.type)
(data_family name: (name) @name.definition.type)
(class name: (name) @name.definition.interface)
(data_constructor constructor: (_ (constructor) @name.definition.constructor))
(data_constructor constructor: (_ name: (constructor) @name.definition.constructor))
(newtype_constructor name: (constructor) @name.definition.constructor)
(field name: (field_name (variable) @name.definition.property))
; an instance implements its class for a type: both are used here
(instance name: (name) @name.reference.class)
(instance patterns: (type_patterns (name) @name.reference.type))

; -- references --------------------------------------------------------------------------------------------------
(apply function: (variable) @name.reference.call)
(apply function: (qualified id: (variable) @name.reference.call))
(infix operator: (infix_id (variable) @name.reference.call))
(qualified id: (_) @name.reference.member)
(constructor) @name.reference.class
(name) @name.reference.type
(variable) @name.reference.identifier

; -- imports -----------------------------------------------------------------------------------------------------
; `import qualified Data.Text as T` imports module Data.Text; `(fromMaybe, isJust)` are the names it takes
(import module: (module) @import)
(import names: (import_list (import_name) @import.name))
(header module: (module) @namespace)
