import Foundation

/// A point on the WGS 84 ellipsoid, in degrees (the domain core's coordinate type; no bridge types).
public struct Coordinate: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether latitude is within -90…90 and longitude within -180…180.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}

/// Great-circle helpers on a spherical Earth (mean radius 6371.0088 km).
public enum Geo {
    /// The mean Earth radius in kilometres (IUGG).
    public static let earthRadiusKm = 6371.0088

    /// The haversine great-circle distance in kilometres.
    public static func distanceKm(_ a: Coordinate, _ b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let dφ = φ2 - φ1, dλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * earthRadiusKm * asin(min(1, sqrt(h)))
    }

    /// The initial bearing (forward azimuth) from `a` to `b`, in degrees clockwise from true north, 0 ..< 360.
    public static func bearingDegrees(_ a: Coordinate, _ b: Coordinate) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let dλ = (b.longitude - a.longitude) * .pi / 180
        let y = sin(dλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
        let θ = atan2(y, x) * 180 / .pi
        let normalized = (θ + 360).truncatingRemainder(dividingBy: 360)
        return normalized == 360 ? 0 : normalized
    }

    /// The unit vector of a coordinate (x towards 0°N 0°E, z towards the North Pole).
    @inlinable
    public static func unitVector(_ c: Coordinate) -> (Double, Double, Double) {
        let φ = c.latitude * .pi / 180, λ = c.longitude * .pi / 180
        return (cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
    }

    /// The chord length on the unit sphere for a great-circle distance in kilometres.
    @inlinable
    public static func chord(forKm km: Double) -> Double {
        2 * sin(min(km / earthRadiusKm, .pi) / 2)
    }

    /// The great-circle distance in kilometres for a chord length on the unit sphere.
    @inlinable
    public static func km(forChord chord: Double) -> Double {
        2 * asin(min(1, chord / 2)) * earthRadiusKm
    }
}
