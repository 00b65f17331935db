import CSDL2

/// SDL's key symbols as viewer keys.
enum WindowKeys {
    static func key(for symbol: SDL_Keycode, shift: Bool) -> ViewerKey? {
        switch Int(symbol) {
        case Int(SDLK_LEFT.rawValue): return shift ? .shiftLeft : .left
        case Int(SDLK_RIGHT.rawValue): return shift ? .shiftRight : .right
        case Int(SDLK_UP.rawValue): return .up
        case Int(SDLK_DOWN.rawValue): return .down
        case Int(SDLK_HOME.rawValue): return .home
        case Int(SDLK_END.rawValue): return .end
        case Int(SDLK_PAGEUP.rawValue): return .pageUp
        case Int(SDLK_PAGEDOWN.rawValue): return .pageDown
        case Int(SDLK_SPACE.rawValue): return .space
        case Int(SDLK_BACKSPACE.rawValue): return .backspace
        case Int(SDLK_RETURN.rawValue), Int(SDLK_KP_ENTER.rawValue): return .enter
        case Int(SDLK_ESCAPE.rawValue): return .escape
        case Int(SDLK_PLUS.rawValue), Int(SDLK_KP_PLUS.rawValue): return .character("+")
        case Int(SDLK_EQUALS.rawValue): return .character(shift ? "+" : "=")
        case Int(SDLK_MINUS.rawValue), Int(SDLK_KP_MINUS.rawValue): return .character("-")
        case Int(SDLK_0.rawValue), Int(SDLK_KP_0.rawValue): return .character("0")
        case Int(SDLK_COMMA.rawValue): return .character(",")
        case Int(SDLK_PERIOD.rawValue): return .character(".")
        case 0x61...0x7A:
            // a ... z
            return Unicode.Scalar(UInt32(symbol)).map { .character(Character($0)) }
        default: return nil
        }
    }
}
